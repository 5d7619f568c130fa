"""Checks run on an uploaded timesheet before payroll sees it."""
from datetime import date, timedelta

from timesheets import Entry


def week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


class ImportReport:
    def __init__(self):
        self.accepted: list[Entry] = []
        self.rejected: list[Entry] = []
        self.reasons: dict[int, str] = {}

    def accept(self, entry: Entry) -> None:
        self.accepted.append(entry)

    def reject(self, entry: Entry, reason: str) -> None:
        self.rejected.append(entry)
        self.reasons[entry.line] = reason


def validate(entries: list[Entry], open_projects: set[str], closed_weeks: frozenset[date] = frozenset()) -> ImportReport:
    """Accept or reject each entry; `closed_weeks` are Mondays of weeks payroll has already paid."""
    report = ImportReport()
    seen: set[tuple] = set()
    for e in entries:
        key = (e.employee, e.day, e.project)
        if week_start(e.day) in closed_weeks:
            report.reject(e, f"week of {week_start(e.day)} is already paid")
        elif not 0 < e.hours <= 24:
            report.reject(e, f"{e.hours} hours is not a possible day")
        elif e.project not in open_projects:
            report.reject(e, f"project {e.project} is closed or unknown")
        elif key in seen:
            report.reject(e, "duplicate of an earlier line")
        else:
            seen.add(key)
            report.accept(e)
    return report
