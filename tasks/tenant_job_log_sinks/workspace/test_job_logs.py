import logging

import pytest

from dispatcher import Dispatcher, Job
from log_sink import JobLogSink, SinkHandler
from worker import Worker


@pytest.fixture
def dispatcher():
    d = Dispatcher(["acme", "globex"])
    yield d
    d.close()


def test_sink_skips_records_without_a_job():
    sink = JobLogSink("acme")
    handler = SinkHandler(sink)
    handler.handle(logging.LogRecord("x", logging.INFO, __file__, 1, "heartbeat", None, None))
    assert sink.entries == []


def test_single_worker_writes_start_and_finish_lines():
    sink = JobLogSink("initech")
    with Worker("solo", sink) as worker:
        assert worker.run(Job("j1", "initech", "import", [1, 2, 3])) == 6
    assert sink.lines_for("j1") == ["started import", "finished: 3 records"]


def test_closed_worker_no_longer_writes():
    sink = JobLogSink("initech")
    worker = Worker("short-lived", sink)
    worker.close()
    worker.run(Job("j2", "initech", "import", [1]))
    assert sink.entries == []


def test_unknown_tenant_is_rejected(dispatcher):
    with pytest.raises(KeyError):
        dispatcher.submit(Job("x", "umbrella", "import"))


def test_tenants_only_see_their_own_jobs(dispatcher):
    dispatcher.submit(Job("a1", "acme", "import", [1, 2]))
    dispatcher.submit(Job("g1", "globex", "export", [5]))
    dispatcher.submit(Job("a2", "acme", "reindex", [3]))
    assert dispatcher.drain() == 3
    assert dispatcher.results == {"a1": 3, "g1": 5, "a2": 3}
    acme_jobs = dispatcher.sinks["acme"].job_ids()
    assert acme_jobs == ["a1", "a2"], f"acme dashboard lists jobs {acme_jobs}"


def test_failure_is_reported_to_the_failing_tenant_only(dispatcher):
    dispatcher.submit(Job("g7", "globex", "import", [4, -1]))
    dispatcher.submit(Job("a7", "acme", "import", [4]))
    dispatcher.drain()
    assert dispatcher.results["g7"] is None
    assert [e.message for e in dispatcher.sinks["globex"].errors()] == ["failed: record -1 is negative"]
    acme_errors = [e.message for e in dispatcher.sinks["acme"].errors()]
    assert acme_errors == [], f"acme dashboard shows errors {acme_errors}"
