from fields import Farm, Zone
from reports import weekly_report
from scheduler import plan_week
from valves import day_program
from sensors import parse_probes
from weather import parse_forecast

FORECAST = parse_forecast("""
2026-07-06, 6.0, 0
2026-07-07, 5.5, 1.5
2026-07-08, 4.0, 22
2026-07-09, 6.5, 0
""")


def farm():
    return Farm("Hollow Oak", [
        Zone("north", "maize", "mid", area_m2=500, soil="loam", flow_lpm=80),
        Zone("tunnel", "tomato", "mid", area_m2=120, soil="sand", flow_lpm=40),
    ])


def test_daily_need_from_et_and_crop():
    plan = plan_week(farm(), FORECAST)
    # maize mid Kc 1.2: 7.2 mm over 500 m2 on the 6th
    assert plan.litres("north", "2026-07-06") == 3600.0
    assert plan.litres("tunnel", "2026-07-06") == 828.0
    assert plan.zones_watered("2026-07-08") == []


def test_heavy_rain_day_is_skipped_and_carried():
    plan = plan_week(farm(), FORECAST)
    assert plan.schedules["north"].skipped_days == ["2026-07-08"]
    # 22 mm rain -> 16 mm effective - 4.8 used = 11.2 carried; 7.8 - 11.2 -> nothing needed on the 9th
    assert plan.litres("north", "2026-07-09") == 0.0


def test_overrides_scale_one_zone():
    plan = plan_week(farm(), FORECAST, overrides={"tunnel": 0.5})
    assert plan.litres("tunnel", "2026-07-06") == 414.0
    assert plan.notes == ["tunnel: need scaled by 0.5"]


def test_two_farms_planned_independently():
    first = plan_week(farm(), FORECAST)
    other = Farm("Mill Lane", [Zone("north", "lettuce", "initial", area_m2=100, soil="clay", flow_lpm=30)])
    second = plan_week(other, FORECAST[:1])
    assert second.schedules["north"].skipped_days == []
    assert first.schedules["north"].skipped_days == ["2026-07-08"]
    # lettuce Kc 0.7 at 6 mm ET0, hardened at 0.8, over 100 m2
    assert second.litres("north", "2026-07-06") == 336.0
    assert second.notes == ["north: need scaled by 0.8"]


def test_replanning_the_same_farm_gives_the_same_plan():
    a = plan_week(farm(), FORECAST)
    b = plan_week(farm(), FORECAST)
    assert a.schedules["tunnel"].skipped_days == b.schedules["tunnel"].skipped_days == ["2026-07-08"]
    assert a.schedules["tunnel"].total_litres() == b.schedules["tunnel"].total_litres()


def test_override_does_not_stick_to_later_plans():
    plan_week(farm(), FORECAST, overrides={"tunnel": 0.5})
    plan = plan_week(farm(), FORECAST)
    assert plan.notes == []
    assert plan.litres("tunnel", "2026-07-06") == 828.0


def test_valve_program_respects_pump_capacity():
    f = farm()
    f.zones.append(Zone("orchard", "alfalfa", "late", area_m2=300, flow_lpm=60))
    plan = plan_week(f, FORECAST)
    program = day_program(f, plan, "2026-07-06")
    # north 45 min at 80 l/min and orchard 27 min at 60 cannot overlap on a 120 l/min pump
    assert program == [("north", "05:00", 45), ("tunnel", "05:00", 21), ("orchard", "05:45", 27)]


def test_hardening_follows_the_crop_stage_not_the_zone_name():
    seedlings = Farm("Nursery", [Zone("tunnel", "tomato", "initial", area_m2=120, soil="sand", flow_lpm=40)])
    assert plan_week(seedlings, FORECAST[:1]).litres("tunnel", "2026-07-06") == 345.6
    assert plan_week(farm(), FORECAST[:1]).litres("tunnel", "2026-07-06") == 828.0


def test_weekly_report_uses_probe_moisture():
    probes = parse_probes(["north 150 30.8", "north 300 31.2", "tunnel 150 9.0"])
    report = weekly_report(farm(), FORECAST, probes)
    north, tunnel = report["rows"]
    # north stores (31.0 - 16.8)% of 300 mm = 42.6 mm, capped at 18: nothing needed on the 6th, 7th or 9th
    assert (north["litres"], north["days_watered"], north["days_skipped"]) == (0.0, 0, 1)
    # tunnel stores 5.4 mm: short on the 6th and 7th, covered on the 9th by what the rain left
    assert (tunnel["days_watered"], tunnel["days_skipped"]) == (2, 1)
    assert report["total_cost"] == tunnel["cost"]
