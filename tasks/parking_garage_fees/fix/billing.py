"""What each stay costs."""
from dataclasses import dataclass

from permits import apply_discount
from sessions import parse_log_line
from tariffs import tariff


@dataclass(frozen=True)
class Charge:
    plate: str
    minutes: int
    cents: int
    night: bool = False


def billable_hours(minutes):
    return -(-minutes // 60)


def day_piece_cost(t, start, end):
    minutes = int((end - start).total_seconds() // 60)
    cost = billable_hours(minutes) * t.hourly
    if t.daily_cap is not None:
        cost = min(cost, t.daily_cap)
    return cost


def overnight(t, session):
    """A stay that starts and ends inside one night window pays the night flat rate."""
    if t.night_flat is None or session.minutes > 12 * 60:
        return False
    return t.is_night(session.entered.hour) and t.is_night(session.left.hour)


def charge(session):
    t = tariff(session.tariff_name)
    if session.minutes <= t.grace_minutes:
        return Charge(session.plate, session.minutes, 0)
    if overnight(t, session):
        return Charge(session.plate, session.minutes, t.night_flat, night=True)
    total = sum(day_piece_cost(t, start, end) for start, end in session.days())
    return Charge(session.plate, session.minutes, total)


def charge_with_permits(session, book):
    """The charge after validated minutes and the best season permit are taken off."""
    free = book.free_minutes(session.plate)
    if free:
        shifted = session.entered.timestamp() + free * 60
        if shifted >= session.left.timestamp():
            return Charge(session.plate, session.minutes, 0)
        session = type(session)(session.plate, session.entered.fromtimestamp(shifted), session.left, session.tariff_name)
    base = charge(session)
    percent = book.best_discount(session.plate, session.entered.date())
    return Charge(base.plate, base.minutes, apply_discount(base.cents, percent), base.night)


def charge_log(lines, book=None):
    sessions = [parse_log_line(line) for line in lines if line.strip()]
    charges = [charge(s) if book is None else charge_with_permits(s, book) for s in sessions]
    return charges, sum(c.cents for c in charges)


def receipt(c):
    kind = "night flat" if c.night else f"{c.minutes} min"
    return f"{c.plate}: {c.cents // 100}.{c.cents % 100:02d} ({kind})"
