"""The morning email: the period's regional table with a subject line the sales leads can scan."""

from currency import to_reporting
from formatting import money, render
from records import in_period
from regions import recipients
from report import grand_total, region_lines


def subject(first_day, last_day, sales):
    span = first_day.isoformat() if first_day == last_day else f"{first_day.isoformat()} to {last_day.isoformat()}"
    return f"Sales {span}: {len(sales)} orders, {money(grand_total(sales))}"


def top_region(sales):
    lines = region_lines(sales)
    if not lines:
        return None
    best = max(lines, key=lambda line: (line.total, line.region))
    return best.region


def morning_digest(sales, first_day, last_day, rates):
    """(subject, body) for the period; amounts are converted to the reporting currency first."""
    period = to_reporting(in_period(sales, first_day, last_day), rates)
    if not period:
        return subject(first_day, last_day, period), "No orders in this period."
    body = [render(period), "", f"Top region: {top_region(period)}"]
    foreign = sorted({s.currency for s in in_period(sales, first_day, last_day)} - {"USD"})
    if foreign:
        body.append(f"Converted from: {', '.join(foreign)}")
    return subject(first_day, last_day, period), "\n".join(body)


def digest_recipients(sales, first_day, last_day):
    return recipients(s.region for s in in_period(sales, first_day, last_day))
