import pytest

from ledger import Ledger
from money import format_cents, parse_cents
from splitting import split_by_shares, split_equally


def test_parse_and_format_amounts():
    assert parse_cents("$1,234.5") == 123450
    assert format_cents(-705) == "-$7.05"
    with pytest.raises(ValueError):
        parse_cents("12.345")


def test_even_split():
    assert split_equally(900, ["ana", "bo", "cy"]) == {"ana": 300, "bo": 300, "cy": 300}


def test_equal_split_accounts_for_every_cent():
    split = split_equally(1000, ["ana", "bo", "cy"])
    assert sum(split.values()) == 1000, f"split {split} covers {sum(split.values())} of 1000 cents"
    assert sorted(split.values()) == [333, 333, 334]


def test_weighted_split_accounts_for_every_cent():
    split = split_by_shares(1000, {"ana": 1, "bo": 1, "cy": 1, "di": 3})
    assert sum(split.values()) == 1000, f"split {split} covers {sum(split.values())} of 1000 cents"
    assert split["di"] in (500, 501)


def test_balances_sum_to_zero():
    ledger = Ledger(["ana", "bo", "cy"])
    ledger.add_equal("dinner", "ana", parse_cents("100.00"))
    ledger.add_equal("taxi", "bo", parse_cents("20.00"), among=["bo", "cy"])
    assert sum(ledger.balances().values()) == 0, ledger.balances()


def test_settlement_pays_back_the_payer():
    ledger = Ledger(["ana", "bo", "cy"])
    ledger.add_weighted("cabin", "cy", 60000, {"ana": 1, "bo": 1, "cy": 1})
    assert ledger.settlement() == [("ana", "cy", 20000), ("bo", "cy", 20000)]
