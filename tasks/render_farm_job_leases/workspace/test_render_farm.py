from jobqueue import JobQueue
from leases import LeaseTable, ManualClock
from worker import Worker

LEASE_SECONDS = 30


def render(payload):
    return f"frame-{payload['frame']}.png"


def make_farm(*names, jobs=("shot-1",)):
    clock = ManualClock()
    queue = JobQueue(LeaseTable(clock, LEASE_SECONDS))
    for n, job_id in enumerate(jobs):
        queue.submit(job_id, {"frame": n + 1})
    return clock, queue, [Worker(name, queue, render) for name in names]


def test_worker_renders_and_reports_job():
    _, queue, (a,) = make_farm("a")
    assert a.start() == "shot-1"
    a.finish()
    assert queue.results == {"shot-1": "frame-1.png"}
    assert queue.completions == [("shot-1", "a")]


def test_heartbeats_keep_job_with_its_worker():
    clock, _, (a, b) = make_farm("a", "b")
    a.start()
    for _ in range(4):
        clock.advance(20)
        a.tick()
    assert b.start() is None
    assert a.lost == []


def test_silent_worker_loses_job_to_another():
    clock, queue, (a, b) = make_farm("a", "b")
    a.start()
    clock.advance(LEASE_SECONDS + 1)
    assert b.start() == "shot-1"
    b.finish()
    assert queue.completions == [("shot-1", "b")]


def test_late_heartbeat_does_not_keep_an_expired_job():
    clock, _, (a, b) = make_farm("a", "b")
    a.start()
    clock.advance(LEASE_SECONDS + 5)
    a.tick()
    assert a.lost == ["shot-1"]
    assert b.start() == "shot-1"


def test_job_is_completed_once_when_first_worker_stalls():
    clock, queue, (a, b) = make_farm("a", "b")
    a.start()
    clock.advance(LEASE_SECONDS + 1)
    b.start()
    clock.advance(1)
    a.tick()
    b.finish()
    a.finish()
    workers = [worker for job, worker in queue.completions if job == "shot-1"]
    assert workers == ["b"], f"shot-1 was completed by {workers}"


def test_stalled_worker_stopping_leaves_new_owner_in_charge():
    clock, _, (a, b, c) = make_farm("a", "b", "c")
    a.start()
    clock.advance(LEASE_SECONDS + 1)
    b.start()
    a.stop()
    assert c.start() is None, "a third worker was handed the job that b is rendering"


def test_workers_share_out_several_jobs():
    _, queue, (a, b) = make_farm("a", "b", jobs=("shot-1", "shot-2"))
    assert {a.start(), b.start()} == {"shot-1", "shot-2"}
    a.finish()
    b.finish()
    assert sorted(queue.results) == ["shot-1", "shot-2"]
