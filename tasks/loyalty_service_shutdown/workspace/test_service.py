from app import LoyaltyService


def test_awards_accumulate_per_member():
    service = LoyaltyService()
    service.award("m1", 10)
    service.award("m1", 5)
    service.award("m2", 7)
    assert service.balance("m1") == 15
    assert service.balance("m2") == 7


def test_full_batch_is_written_while_running():
    service = LoyaltyService(batch_size=2)
    service.award("m1", 10)
    service.award("m2", 20)
    assert service.database.rows == {"m1": 10, "m2": 20}
    assert service.balances.pending == 0


def test_shutdown_writes_pending_balances():
    service = LoyaltyService()
    service.award("m1", 10)
    service.award("m2", 3)
    service.shutdown.shutdown()
    assert service.database.rows.get("m1") == 10
    assert service.database.rows.get("m2") == 3


def test_shutdown_saves_daily_total():
    service = LoyaltyService(batch_size=2)
    for member in ("m1", "m2", "m3", "m4"):
        service.award(member, 5)
    service.shutdown.shutdown()
    assert service.database.rows.get("__awarded_today__") == 20


def test_shutdown_closes_database_and_runs_once():
    service = LoyaltyService()
    service.shutdown.shutdown()
    service.shutdown.shutdown()
    assert service.database.closed
    assert service.shutdown.errors == []


def test_failing_hook_does_not_stop_the_others():
    service = LoyaltyService()

    def broken():
        raise OSError("disk full")

    service.shutdown.on_shutdown("report", broken)
    service.shutdown.shutdown()
    assert service.database.closed
    assert service.shutdown.errors == [("report", "OSError: disk full")]
