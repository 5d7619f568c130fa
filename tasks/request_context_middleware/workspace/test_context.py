import threading

from app import AccountService, Request
from jobs import Scheduler, nightly_cleanup, stale_email_report


def req(path, rid, token=None, body=None, **headers):
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return Request(path, rid, {k.replace("_", "-"): v for k, v in headers.items()}, body or {})


def test_authenticated_request_is_audited_as_its_user():
    service = AccountService()
    status, _ = service.call(req("/email", "r1", "t-bob", {"account": "acct-1", "email": "b@example.org"}))
    assert status == 200
    assert service.audit.last() == {"action": "change_email", "target": "acct-1", "actor": "bob"}


def test_errors_map_to_statuses():
    service = AccountService()
    assert service.call(req("/email", "r1", "t-bob", {"account": "acct-1", "email": "nope"}))[0] == 400
    assert service.call(req("/email", "r2", "t-bob", {"account": "acct-9", "email": "a@b"}))[0] == 404
    assert service.call(req("/email", "r3", "t-zzz", {}))[0] == 401
    assert service.call(req("/whoami", "r4", "t-bob", X_On_Behalf_Of="alice"))[0] == 403


def test_support_acts_on_behalf_of_a_customer():
    service = AccountService()
    status, body = service.call(req("/whoami", "r1", "t-carol", X_On_Behalf_Of="bob"))
    assert (status, body) == (200, {"user": "carol", "on_behalf_of": "bob"})


def test_parallel_requests_keep_their_own_users():
    service = AccountService(workers=2)
    barrier = threading.Barrier(2, timeout=2)
    original = service.whoami

    def slow_whoami(request):
        barrier.wait()
        return original(request)

    service.routes["/whoami"] = slow_whoami
    a = service.submit(req("/whoami", "a", "t-alice"))
    b = service.submit(req("/whoami", "b", "t-bob"))
    assert a.result(timeout=5)[1]["user"] == "alice"
    assert b.result(timeout=5)[1]["user"] == "bob"


def test_failed_request_does_not_leak_into_the_next_one():
    service = AccountService()
    service.call(req("/close", "r1", "t-carol", {"account": "acct-1"}, X_On_Behalf_Of="bob"))
    status, body = service.call(req("/whoami", "r2"))
    assert body == {"user": "anonymous", "on_behalf_of": None}


def test_scheduled_job_after_a_failed_request_runs_as_system():
    service = AccountService()
    service.accounts["acct-2"] = {"owner": "dan", "email": ""}
    assert service.call(req("/close", "r1", "t-bob", {"account": "acct-2"}))[0] == 403
    assert service.run_job(nightly_cleanup) == ["acct-2"]
    assert service.audit.last() == {"action": "cleanup", "target": "acct-2", "actor": "system"}


def test_admin_closes_accounts():
    service = AccountService()
    assert service.call(req("/close", "r1", "t-alice", {"account": "acct-1"})) == (200, {"closed": "acct-1"})
    assert [e["action"] for e in service.audit.by_actor("alice")] == ["close_attempt", "close"]


def test_scheduler_runs_due_jobs_in_order():
    service = AccountService()
    service.accounts["acct-3"] = {"owner": "eve", "email": "eve@old.example"}
    scheduler = Scheduler(service)
    scheduler.every("cleanup", 24, nightly_cleanup)
    scheduler.every("stale", 12, stale_email_report, "old.example")
    assert scheduler.run_due(now_hours=12) == {"cleanup": [], "stale": ["acct-3"]}
    assert scheduler.run_due(now_hours=20) == {}
    assert sorted(scheduler.run_due(now_hours=36)) == ["cleanup", "stale"]


def test_audit_summary_and_export():
    service = AccountService()
    service.call(req("/email", "r1", "t-bob", {"account": "acct-1", "email": "b@example.org"}))
    service.run_job(nightly_cleanup)
    assert service.audit.summary() == {"change_email": 1}
    assert service.audit.export() == [{"action": "change_email", "target": "ac***", "actor": "bob"}]
