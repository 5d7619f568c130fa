from scheduler import Scheduler
from tasks import MaintenanceLog
from windows import MaintenancePlanner


def make_planner():
    log = MaintenanceLog()
    return log, MaintenancePlanner(Scheduler(), log)


def test_windows_run_in_time_order():
    log, planner = make_planner()
    planner.book("backup", "orders", at=120)
    planner.book("vacuum", "orders", at=60)
    planner.book("reindex", "users", at=90)
    assert planner.advance_to(200) == ["vacuum:orders", "reindex:users", "backup:orders"]
    assert log.entries == ["vacuum orders", "reindex users", "backup orders"]


def test_nothing_runs_before_its_window():
    log, planner = make_planner()
    planner.book("backup", "orders", at=120)
    assert planner.advance_to(119) == []
    assert planner.advance_to(120) == ["backup:orders"]


def test_postponed_window_runs_at_its_new_time():
    log, planner = make_planner()
    name = planner.book("vacuum", "orders", at=60)
    planner.move(name, 45)
    planner.advance_to(100)
    assert log.entries == [], "vacuum ran inside the original window"
    planner.advance_to(105)
    assert log.entries == ["vacuum orders"]


def test_window_brought_forward_runs_once():
    log, planner = make_planner()
    name = planner.book("reindex", "users", at=90)
    planner.move(name, -30)
    planner.advance_to(60)
    planner.advance_to(200)
    assert log.entries == ["reindex users"]


def test_called_off_window_never_runs():
    log, planner = make_planner()
    name = planner.book("backup", "orders", at=30)
    planner.call_off(name)
    assert planner.advance_to(500) == []


def test_rebooked_window_waits_for_its_new_time():
    log, planner = make_planner()
    name = planner.book("backup", "orders", at=30)
    planner.call_off(name)
    planner.book("backup", "orders", at=300)
    planner.advance_to(200)
    assert log.entries == []
    planner.advance_to(300)
    assert log.entries == ["backup orders"]
