"""The weekly water report for the farm office."""
from scheduler import plan_week
from sensors import stored_mm

PRICE_PER_M3 = 1.35


def weekly_report(farm, forecast, probes=(), overrides=None):
    moisture = {z.name: stored_mm(z, probes) for z in farm.zones}
    plan = plan_week(farm, forecast, overrides, moisture=moisture)
    rows = []
    for zone in farm.zones:
        schedule = plan.schedules[zone.name]
        litres = schedule.total_litres()
        rows.append({
            "zone": zone.name,
            "litres": litres,
            "days_watered": len(schedule.litres_by_day),
            "days_skipped": len(schedule.skipped_days),
            "cost": round(litres / 1000 * PRICE_PER_M3, 2),
        })
    return {"farm": farm.name, "rows": rows, "total_cost": round(sum(r["cost"] for r in rows), 2), "notes": plan.notes}
