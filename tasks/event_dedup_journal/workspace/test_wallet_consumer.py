import pytest

from journal import Journal
from wallet_consumer import WalletConsumer


def payment(account, cents, at, kind="payment.succeeded", memo="Café order"):
    # Field order as the provider sends it.
    return {"type": kind, "occurred_at": at, "account": account, "amount_cents": cents, "meta": {"memo": memo, "channel": "web"}}


def test_payments_and_refunds_move_the_balance(tmp_path):
    consumer = WalletConsumer(Journal(tmp_path / "journal.jsonl"))
    consumer.handle(payment("acct_9", 1250, "2024-04-01T10:00:00Z"))
    consumer.handle(payment("acct_9", 300, "2024-04-01T11:00:00Z", kind="payment.refunded"))
    assert consumer.balances == {"acct_9": 950}


def test_redelivery_is_ignored(tmp_path):
    consumer = WalletConsumer(Journal(tmp_path / "journal.jsonl"))
    assert consumer.handle(payment("acct_9", 1250, "2024-04-01T10:00:00Z"))
    assert not consumer.handle(payment("acct_9", 1250, "2024-04-01T10:00:00Z"))
    assert consumer.balances == {"acct_9": 1250}


def test_same_amount_at_another_time_is_a_new_payment(tmp_path):
    consumer = WalletConsumer(Journal(tmp_path / "journal.jsonl"))
    consumer.handle(payment("acct_9", 1250, "2024-04-01T10:00:00Z"))
    assert consumer.handle(payment("acct_9", 1250, "2024-04-02T10:00:00Z"))
    assert consumer.balances == {"acct_9": 2500}


def test_unknown_event_type_is_rejected(tmp_path):
    consumer = WalletConsumer(Journal(tmp_path / "journal.jsonl"))
    with pytest.raises(ValueError):
        consumer.handle({"type": "customer.created", "account": "acct_9"})


def test_restart_rebuilds_balances(tmp_path):
    first = WalletConsumer(Journal(tmp_path / "journal.jsonl"))
    first.handle(payment("acct_9", 1250, "2024-04-01T10:00:00Z"))
    first.handle(payment("acct_4", 700, "2024-04-01T10:05:00Z"))
    assert WalletConsumer(Journal(tmp_path / "journal.jsonl")).balances == {"acct_9": 1250, "acct_4": 700}


def test_redelivery_after_restart_is_ignored(tmp_path):
    WalletConsumer(Journal(tmp_path / "journal.jsonl")).handle(payment("acct_9", 1250, "2024-04-01T10:00:00Z"))
    restarted = WalletConsumer(Journal(tmp_path / "journal.jsonl"))
    restarted.handle(payment("acct_9", 1250, "2024-04-01T10:00:00Z"))
    assert restarted.balances == {"acct_9": 1250}
    assert WalletConsumer(Journal(tmp_path / "journal.jsonl")).balances == {"acct_9": 1250}
