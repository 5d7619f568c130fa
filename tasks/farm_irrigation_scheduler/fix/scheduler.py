"""Daily water budgets per zone and the week's plan."""
from dataclasses import dataclass, field

from weather import effective_rain

SKIP_RAIN_MM = 10.0


class ZoneSchedule:
    def __init__(self, zone, litres_by_day=None, skipped_days=None):
        self.zone = zone
        self.litres_by_day = dict(litres_by_day or {})
        self.skipped_days = list(skipped_days or [])

    def total_litres(self):
        return round(sum(self.litres_by_day.values()), 1)

    def skip(self, date):
        self.skipped_days.append(date)
        self.litres_by_day.pop(date, None)


@dataclass
class WeekPlan:
    farm: str
    schedules: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)

    def litres(self, zone_name, date):
        return self.schedules[zone_name].litres_by_day.get(date, 0.0)

    def zones_watered(self, date):
        return sorted(name for name, s in self.schedules.items() if date in s.litres_by_day)


def deficit_mm(zone, day, carried_mm):
    need = zone.kc * day.et0_mm - effective_rain(day.rain_mm) - carried_mm
    return max(0.0, round(need, 2))


HARDENING = 0.8


def plan_week(farm, forecast, overrides=None, moisture=None):
    """overrides: {zone name: multiplier} applied on top of the computed need. Zones in their initial stage are
    hardened off at HARDENING unless an override says otherwise. moisture: {zone name: mm already stored}."""
    overrides = dict(overrides or {})
    plan = WeekPlan(farm.name)
    for zone in farm.zones:
        overrides.setdefault(zone.name, HARDENING if zone.stage == "initial" else 1.0)
        schedule = ZoneSchedule(zone)
        carried = (moisture or {}).get(zone.name, 0.0)
        for day in forecast:
            if day.rain_mm >= SKIP_RAIN_MM:
                schedule.skip(day.date)
                carried = min(zone.holding_mm, carried + effective_rain(day.rain_mm) - zone.kc * day.et0_mm)
                carried = max(0.0, carried)
                continue
            mm = deficit_mm(zone, day, carried) * overrides[zone.name]
            carried = max(0.0, round(carried - zone.kc * day.et0_mm + effective_rain(day.rain_mm), 2))
            if mm > 0:
                schedule.litres_by_day[day.date] = round(mm * zone.area_m2, 1)
        plan.schedules[zone.name] = schedule
        if overrides[zone.name] != 1.0:
            plan.notes.append(f"{zone.name}: need scaled by {overrides[zone.name]}")
    return plan
