import pytest

from scheduler import Scheduler


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_job_waits_until_it_is_due():
    clock = FakeClock()
    sched = Scheduler(clock)
    sched.schedule("daily-sales", 60, lambda: None)
    assert sched.tick() == 0
    clock.now += 60
    assert sched.tick() == 1
    assert sched.ran == ["daily-sales"]


def test_failing_job_is_recorded_not_raised():
    clock = FakeClock()
    sched = Scheduler(clock)
    sched.schedule("broken", 0, lambda: 1 / 0)
    sched.tick()
    assert sched.failures == {"broken": "ZeroDivisionError: division by zero"}
    assert sched.ran == []


def test_cancelling_an_unknown_job_raises():
    sched = Scheduler(FakeClock())
    with pytest.raises(KeyError):
        sched.cancel(10_000)


def test_due_jobs_run_in_time_order():
    clock = FakeClock()
    sched = Scheduler(clock)
    sched.schedule("weekly-churn", 30, lambda: None)
    sched.schedule("daily-sales", 10, lambda: None)
    sched.schedule("hourly-traffic", 20, lambda: None)
    clock.now += 60
    sched.tick()
    assert sched.ran == ["daily-sales", "hourly-traffic", "weekly-churn"], f"ran {sched.ran}"


def test_cancelled_job_is_skipped_and_the_rest_still_run():
    clock = FakeClock()
    sched = Scheduler(clock)
    export = sched.schedule("export", 5, lambda: None)
    sched.schedule("digest", 5, lambda: None)
    sched.cancel(export)
    clock.now += 5
    sched.tick()
    assert sched.ran == ["digest"], f"ran {sched.ran}"
