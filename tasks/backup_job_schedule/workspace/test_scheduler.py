from datetime import datetime, timedelta

from scheduler import Scheduler
from jobs import BackupJob

T0 = datetime(2024, 3, 1, 2, 0)


def make(tmp_path):
    s = Scheduler(tmp_path / "jobs.json")
    s.add(BackupJob("postgres", "db01:/var/lib/pg", timedelta(days=1), timedelta(hours=3)))
    s.add(BackupJob("mail", "mx01:/srv/mail", timedelta(hours=6)))
    s.add(BackupJob("media", "nas:/media", timedelta(hours=36), timedelta(hours=8)))
    for name in ("postgres", "mail", "media"):
        s.record_run(name, T0)
    return s


def test_new_job_is_due_at_once(tmp_path):
    s = Scheduler(tmp_path / "jobs.json")
    s.add(BackupJob("wiki", "web01:/srv/wiki", timedelta(hours=12)))
    assert s.due(T0) == ["wiki"]


def test_only_the_six_hourly_job_is_due_after_seven_hours(tmp_path):
    assert make(tmp_path).due(T0 + timedelta(hours=7)) == ["mail"]


def test_upcoming_runs_in_the_next_two_days(tmp_path):
    runs = make(tmp_path).upcoming(T0 + timedelta(hours=1), timedelta(days=2))
    assert [name for _, name in runs].count("postgres") == 2
    assert [name for _, name in runs].count("media") == 1


def test_timeouts_survive_reload(tmp_path):
    make(tmp_path)
    reloaded = Scheduler(tmp_path / "jobs.json")
    assert reloaded.jobs["postgres"].timeout == timedelta(hours=3)
    assert reloaded.jobs["mail"].timeout == timedelta(hours=1)


def test_restarted_daemon_does_not_rerun_fresh_backups(tmp_path):
    make(tmp_path)
    restarted = Scheduler(tmp_path / "jobs.json")
    assert restarted.due(T0 + timedelta(hours=7)) == ["mail"]


def test_restarted_daemon_plans_the_same_runs(tmp_path):
    before = make(tmp_path).upcoming(T0 + timedelta(hours=1), timedelta(days=3))
    after = Scheduler(tmp_path / "jobs.json").upcoming(T0 + timedelta(hours=1), timedelta(days=3))
    assert after == before
