import datetime as dt
import uuid
from decimal import Decimal

import pytest

from exchange import FormatError, export_ledger, import_ledger
from ledger import Ledger, Unbalanced
from vendor.jsonkit import DecodeError, default_codec


def sample():
    ledger = Ledger("acme-2026")
    ledger.book("t1", dt.date(2026, 1, 3), "capital", ("bank", "10000.00"), ("equity", "-10000.00"))
    ledger.book("t2", dt.date(2026, 1, 9), "laptop", ("equipment", "1299.99"), ("bank", "-1299.99"), tags={"capex"})
    ledger.book("t3", dt.date(2026, 2, 1), "fees", ("bank_fees", "0.10"), ("bank", "-0.10"))
    ledger.book("t4", dt.date(2026, 2, 2), "fees", ("bank_fees", "0.20"), ("bank", "-0.20"))
    return ledger


def test_codec_round_trips_standard_types():
    codec = default_codec()
    value = {"d": dt.date(2026, 5, 1), "u": uuid.UUID(int=7), "s": {3, 1}, "n": [1, "x"]}
    assert codec.loads(codec.dumps(value)) == value
    with pytest.raises(DecodeError):
        codec.loads('{"$t": "nope", "v": 1}')


def test_ledger_balances():
    ledger = sample()
    assert ledger.balance("bank") == Decimal("8699.71")
    assert ledger.balance("bank", until=dt.date(2026, 1, 31)) == Decimal("8700.01")
    with pytest.raises(Unbalanced):
        ledger.book("bad", dt.date(2026, 3, 1), "typo", ("bank", "5.00"), ("equity", "-4.00"))


def test_export_keeps_dates_and_tags():
    again = import_ledger(export_ledger(sample()))
    assert [t.booked_on for t in again.transactions] == [t.booked_on for t in sample().transactions]
    assert again.transactions[1].tags == frozenset({"capex"})


def test_reimported_ledger_has_the_same_trial_balance():
    original = sample()
    assert import_ledger(export_ledger(original)).trial_balance() == original.trial_balance()


def test_amounts_survive_export_exactly():
    again = import_ledger(export_ledger(sample()))
    assert again.transactions[1].postings[0].amount == Decimal("1299.99")


def test_reimported_ledger_can_be_booked_into():
    again = import_ledger(export_ledger(sample()))
    again.book("t5", dt.date(2026, 3, 1), "refund", ("bank", "0.30"), ("bank_fees", "-0.30"))
    assert again.balance("bank_fees") == Decimal("0.00")


def test_wrong_format_is_refused():
    with pytest.raises(FormatError):
        import_ledger('{"format": "ledger-export/1", "name": "x", "transactions": []}')


def test_statements_after_reimport():
    from statements import largest_transactions, monthly_movements, profit_and_loss

    again = import_ledger(export_ledger(sample()))
    assert monthly_movements(again, "bank_fees") == {"2026-02": Decimal("0.30")}
    assert profit_and_loss(again) == {"income": Decimal(0), "expenses": Decimal("0.30"), "profit": Decimal("-0.30")}
    assert largest_transactions(again, 2) == ["t1", "t2"]
