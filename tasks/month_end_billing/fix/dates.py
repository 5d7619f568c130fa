"""Calendar helpers for billing periods."""
import calendar
import datetime as dt


def days_in_month(year, month):
    return calendar.monthrange(year, month)[1]


def add_months(day, months):
    """The same day `months` later, for stepping from one billing date to the next."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    return dt.date(year, month + 1, min(day.day, days_in_month(year, month + 1)))


def month_label(day):
    return f"{day.year:04d}-{day.month:02d}"


def parse_date(text):
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not an ISO date: {text!r}") from None


def days_between(start, end):
    return (end - start).days


def is_month_end(day):
    return day.day == days_in_month(day.year, day.month)
