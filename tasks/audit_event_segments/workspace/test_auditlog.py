import pytest

from auditlog import AuditLog


def filled_log():
    log = AuditLog(segment_size=3)
    log.record("login", user="ana")
    log.record("role_granted", user="ana", role="admin")
    log.record("page_view", user="ana", page="/billing")
    log.record("refund_issued", user="ana", amount=40)
    log.record("logout", user="ana")
    log.record("login", user="ben")
    log.record("export_downloaded", user="ben", file="customers.csv")
    return log


def test_events_are_stored_in_segments_in_order():
    log = filled_log()
    assert log.store.segment_names() == ["seg-0000", "seg-0001", "seg-0002"]
    assert [r.offset for r in log.all()] == list(range(7))


def test_first_finds_earliest_event_of_a_kind():
    log = filled_log()
    assert log.first("refund_issued").data == {"user": "ana", "amount": 40}
    assert log.first("password_reset") is None


def test_purge_keeps_sensitive_events():
    log = filled_log()
    log.all()
    log.purge_routine()
    assert [r.kind for r in log.all()] == ["role_granted", "refund_issued", "export_downloaded"]


def test_purge_after_looking_up_an_event():
    log = filled_log()
    assert log.first("role_granted").offset == 1
    log.purge_routine()
    assert [r.offset for r in log.all()] == [1, 3, 6]


def test_purge_after_a_replay_handler_failed():
    log = filled_log()
    seen = []

    def handler(record):
        if record.kind == "refund_issued":
            raise RuntimeError("ledger unavailable")
        seen.append(record.offset)

    with pytest.raises(RuntimeError, match="ledger unavailable"):
        log.replay(handler)
    assert seen == [0, 1, 2]
    log.purge_routine()
    assert len(log.all()) == 3


def test_replay_resumes_from_offset():
    log = filled_log()
    seen = []
    assert log.replay(lambda r: seen.append(r.kind), since=5) == 7
    assert seen == ["login", "export_downloaded"]
