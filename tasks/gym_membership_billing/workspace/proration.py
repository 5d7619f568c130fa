import calendar
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def days_in_month(d):
    return calendar.monthrange(d.year, d.month)[1]


def days_used(start, end):
    if end < start:
        raise ValueError("end before start")
    return (end - start).days


def prorate(monthly, start, end):
    if (start.year, start.month) != (end.year, end.month):
        raise ValueError("proration spans one month only")
    share = Decimal(days_used(start, end)) / Decimal(days_in_month(start))
    return (monthly * share).quantize(CENT, rounding=ROUND_HALF_UP)


def month_end(d):
    return date(d.year, d.month, days_in_month(d))


def next_month_start(d):
    return date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def months_between(start, end):
    if end < start:
        raise ValueError("end before start")
    count = 0
    current = date(start.year, start.month, 1)
    while current <= end:
        count += 1
        current = next_month_start(current)
    return count
