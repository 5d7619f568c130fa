from datetime import date

from payroll import hours_by_employee, overtime, uploader_note
from timesheets import parse
from validation import validate

PROJECTS = {"apollo", "hermes"}

CLEAN = """
mia, 2024-05-06, apollo, 7.5
mia, 2024-05-07, hermes, 8
tom, 2024-05-06, apollo, 6
"""

MESSY = """
mia, 2024-05-06, apollo, 7.5
mia, 2024-05-06, apollo, 7.5
tom, 2024-05-06, zeus, 4
tom, 2024-05-07, hermes, 30
tom, 2024-05-08, hermes, 5
"""


def test_parse():
    first = parse(CLEAN)[0]
    assert (first.line, first.employee, first.day, first.hours) == (1, "mia", date(2024, 5, 6), 7.5)


def test_clean_file_is_fully_accepted():
    report = validate(parse(CLEAN), PROJECTS)
    assert len(report.accepted) == 3
    assert hours_by_employee(report) == {"mia": 15.5, "tom": 6.0}


def test_payroll_hours_leave_out_rejected_lines():
    report = validate(parse(MESSY), PROJECTS)
    assert hours_by_employee(report) == {"mia": 7.5, "tom": 5.0}


def test_uploader_is_told_about_each_rejected_line():
    report = validate(parse(MESSY), PROJECTS)
    assert uploader_note(report) == [
        "line 2: duplicate of an earlier line",
        "line 3: project zeus is closed or unknown",
        "line 4: 30.0 hours is not a possible day",
    ]


def test_overtime_per_week():
    week = "\n".join(f"ana, 2024-05-{d:02d}, apollo, 9" for d in range(6, 11))
    next_week = "ana, 2024-05-13, hermes, 8"
    report = validate(parse(week + "\n" + next_week), PROJECTS)
    assert overtime(report) == {("ana", "2024-05-06"): 5.0}


def test_paid_weeks_are_closed():
    report = validate(parse(CLEAN), PROJECTS, closed_weeks=frozenset({date(2024, 5, 6)}))
    assert report.reasons == {n: "week of 2024-05-06 is already paid" for n in (1, 2, 3)}
