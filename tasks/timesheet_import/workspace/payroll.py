"""What payroll takes from an import: hours per employee and a note for the uploader."""
from collections import defaultdict

from validation import ImportReport, week_start

WEEKLY_HOURS = 40.0


def hours_by_employee(report: ImportReport) -> dict[str, float]:
    totals: dict[str, float] = defaultdict(float)
    for e in report.accepted:
        totals[e.employee] += e.hours
    return dict(totals)


def uploader_note(report: ImportReport) -> list[str]:
    """One line per rejected entry, in file order."""
    return [f"line {e.line}: {report.reasons[e.line]}" for e in sorted(report.rejected, key=lambda e: e.line)]


def overtime(report: ImportReport) -> dict[tuple[str, str], float]:
    """Hours beyond the weekly limit, by (employee, ISO date of the week's Monday)."""
    weekly: dict[tuple[str, str], float] = defaultdict(float)
    for e in report.accepted:
        weekly[(e.employee, week_start(e.day).isoformat())] += e.hours
    return {k: round(h - WEEKLY_HOURS, 2) for k, h in sorted(weekly.items()) if h > WEEKLY_HOURS}
