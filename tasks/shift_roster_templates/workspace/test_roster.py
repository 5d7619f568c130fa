import pytest

from shifts import ShiftError, parse_shift
from staffing import Employee, Roster, StaffingError
from week import WeekTemplate


def test_parse_shift():
    s = parse_shift("Tue 09:00-17:30", "till")
    assert (s.day, s.start, s.end, s.role, s.hours) == (1, 540, 1050, "till", 8.5)
    assert s.label() == "Tue 09:00-17:30 till"
    for bad in ("Tue 9-5", "Xyz 09:00-10:00", "Mon 10:00-09:00", "Mon 09:00-25:00"):
        with pytest.raises(ShiftError):
            parse_shift(bad)


def test_overlap():
    a, b, c = parse_shift("Mon 09:00-13:00"), parse_shift("Mon 12:00-16:00"), parse_shift("Tue 12:00-16:00")
    assert a.overlaps(b) and not a.overlaps(c)


def test_shift_lands_on_its_own_day():
    week = WeekTemplate("summer")
    week.add_text("Mon 09:00-17:00")
    assert len(week.on("Mon")) == 1
    assert week.on("Tue") == []
    assert week.hours() == 8


def test_cleared_template_starts_empty_per_day():
    week = WeekTemplate("winter")
    week.add_text("Sat 10:00-14:00")
    week.clear()
    week.add_text("Sun 10:00-16:00")
    assert [len(week.on(d)) for d in ("Mon", "Sat", "Sun")] == [0, 0, 1]


def test_bulk_import_groups_by_day():
    week = WeekTemplate("holiday")
    count = week.import_lines(["# opening", "Fri 08:00-12:00 floor", "Fri 12:00-20:00 till", "", "Sat 09:00-18:00 floor"])
    assert count == 3
    assert [s.role for s in week.on("Fri")] == ["floor", "till"]
    assert len(week.all_shifts()) == 3


def test_roster_assigns_and_lists_open_shifts():
    week = WeekTemplate("base")
    mon = week.add_text("Mon 09:00-17:00")
    tue = week.add_text("Tue 09:00-17:00", "till")
    ana = Employee("Ana", {"floor", "till"})
    roster = Roster(week)
    roster.assign(mon, ana)
    assert roster.open_shifts() == [tue]
    assert roster.table() == [("Mon 09:00-17:00 floor", "Ana"), ("Tue 09:00-17:00 till", "-")]


def test_roster_refuses_overlaps_and_wrong_roles():
    week = WeekTemplate("base")
    early = week.add_text("Wed 06:00-14:00")
    late = week.add_text("Wed 13:00-21:00")
    till = week.add_text("Thu 09:00-12:00", "till")
    bo = Employee("Bo")
    roster = Roster(week)
    roster.assign(early, bo)
    with pytest.raises(StaffingError, match="already works"):
        roster.assign(late, bo)
    with pytest.raises(StaffingError, match="cannot work till"):
        roster.assign(till, bo)


def test_remove_shift():
    week = WeekTemplate("base")
    shift = week.add_text("Thu 10:00-12:00")
    week.remove(shift)
    assert week.all_shifts() == []
    with pytest.raises(ShiftError):
        week.remove(shift)


def test_weekend_and_late_premiums():
    from labour import OverBudget, check_budget, cost_by_day, shift_cost

    assert shift_cost(parse_shift("Mon 09:00-17:00"), 20) == 160.0
    assert shift_cost(parse_shift("Sat 09:00-17:00"), 20) == 200.0
    assert shift_cost(parse_shift("Fri 18:00-22:00"), 20) == 86.0  # 80 + 2 late hours x 20 x 0.15
    week = WeekTemplate("costed")
    sat = week.add(parse_shift("Sat 09:00-17:00"))
    roster = Roster(week)
    roster.assign(sat, Employee("Cy"))
    assert cost_by_day(roster, {"Cy": 20}) == {"Sat": 200.0}
    with pytest.raises(OverBudget):
        check_budget(roster, {"Cy": 20}, 150)


def test_exports():
    from export import staff_room_sheet, to_csv

    week = WeekTemplate("export")
    shift = week.add(parse_shift("Sun 10:00-16:00", "till"))
    roster = Roster(week)
    roster.assign(shift, Employee("Di", {"till"}))
    assert to_csv(roster) == "day,start,end,role,employee\nSun,10:00,16:00,till,Di\n"
    assert staff_room_sheet(roster).splitlines()[-1] == "Sun: 10:00-16:00 till Di"
    assert staff_room_sheet(roster).splitlines()[1] == "Mon: closed"
