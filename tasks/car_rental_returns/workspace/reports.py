"""The station manager's morning report: overdue cars, utilization, revenue."""
from collections import defaultdict

from contracts import parse_time


def overdue(desk, now):
    """Open contracts past their due time, most overdue first, with the hours overdue."""
    t = parse_time(now)
    late = []
    for c in desk.open_rentals():
        hours = (t - parse_time(c.due)).total_seconds() / 3600
        if hours > 0:
            late.append((c.contract_id, c.plate, c.customer, round(hours, 1)))
    return sorted(late, key=lambda row: -row[3])


def utilization(desk):
    """{station: (rented, total)} by the station each car was last seen at."""
    rented = desk.rented_plates()
    out = defaultdict(lambda: [0, 0])
    for car in desk.fleet.cars.values():
        out[car.station][1] += 1
        if car.plate in rented:
            out[car.station][0] += 1
    return {station: tuple(v) for station, v in sorted(out.items())}


def revenue(desk):
    totals = defaultdict(int)
    for bill in desk.invoices:
        totals["rental"] += bill.rental_cents
        totals["extra_km"] += bill.extra_km_cents
        totals["late"] += bill.late_cents
        totals["fuel"] += bill.fuel_cents
    totals["total"] = sum(totals.values())
    return dict(totals)


def format_chf(cents):
    return f"CHF {cents // 100:,}.{cents % 100:02d}".replace(",", "'")
