import pytest

from events import InvalidEvent
from journal import Journal
from reconcile import Mismatch, mismatches
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


def test_malformed_events_are_rejected_before_they_are_journalled(tmp_path):
    consumer = WalletConsumer(Journal(tmp_path / "journal.jsonl"))
    bad = [
        dict(payment("acct_9", 1250, "2024-04-01T10:00:00Z"), amount_cents=-5),
        dict(payment("acct_9", 1250, "2024-04-01T10:00:00Z"), account="9"),
        dict(payment("acct_9", 1250, "2024-04-01 10:00")),
    ]
    for event in bad:
        with pytest.raises(InvalidEvent):
            consumer.handle(event)
    assert not (tmp_path / "journal.jsonl").exists()


def test_replay_skips_a_torn_last_line(tmp_path):
    path = tmp_path / "journal.jsonl"
    WalletConsumer(Journal(path)).handle(payment("acct_4", 700, "2024-04-01T10:05:00Z"))
    with open(path, "a", encoding="utf-8") as out:
        out.write('{"type": "payment.succ')
    assert WalletConsumer(Journal(path)).balances == {"acct_4": 700}


def test_reconciliation_lists_disagreeing_accounts(tmp_path):
    consumer = WalletConsumer(Journal(tmp_path / "journal.jsonl"))
    consumer.handle(payment("acct_9", 1250, "2024-04-01T10:00:00Z"))
    consumer.handle(payment("acct_4", 700, "2024-04-01T10:05:00Z"))
    report = "account,net_cents\nacct_9,1000\nacct_9,250\nacct_4,650\nacct_2,80\n"
    assert mismatches(consumer.balances, report) == [Mismatch("acct_2", 0, 80), Mismatch("acct_4", 700, 650)]
