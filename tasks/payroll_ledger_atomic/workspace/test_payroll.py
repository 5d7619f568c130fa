import pytest

from ledger import FrozenAccount, InsufficientFunds, Ledger
from payroll import COMPANY, TAX_OFFICE, Payslip, pay, run_payroll

SLIPS = [
    Payslip("emp:ana", 400_000, 100_000),
    Payslip("emp:ben", 300_000, 60_000),
    Payslip("emp:cho", 200_000, 30_000),
]


def test_payslip_posts_net_salary_and_tax():
    ledger = Ledger({COMPANY: 1_000_000})
    pay(ledger, SLIPS[0])
    assert ledger.balances == {COMPANY: 600_000, "emp:ana": 300_000, TAX_OFFICE: 100_000}
    assert len(ledger.journal) == 2


def test_payslip_that_cannot_cover_tax_posts_nothing():
    ledger = Ledger({COMPANY: 350_000})
    with pytest.raises(InsufficientFunds):
        pay(ledger, SLIPS[0])
    assert ledger.balances == {COMPANY: 350_000}
    assert ledger.journal == []


def test_payroll_pays_everyone():
    ledger = Ledger({COMPANY: 1_000_000})
    assert run_payroll(ledger, SLIPS) == 3
    assert ledger.balances[COMPANY] == 100_000
    assert ledger.balances[TAX_OFFICE] == 190_000
    assert ledger.atomic.depth == 0


def test_payroll_with_a_frozen_account_pays_nobody():
    ledger = Ledger({COMPANY: 1_000_000})
    ledger.frozen.add("emp:cho")
    with pytest.raises(FrozenAccount):
        run_payroll(ledger, SLIPS)
    assert ledger.balances == {COMPANY: 1_000_000}
    assert ledger.journal == []


def test_payroll_running_out_of_money_pays_nobody():
    ledger = Ledger({COMPANY: 650_000})
    with pytest.raises(InsufficientFunds):
        run_payroll(ledger, SLIPS)
    assert ledger.balances[COMPANY] == 650_000
    assert [memo for *_, memo in ledger.journal] == []


def test_ledger_recovers_for_next_payroll_after_a_failed_one():
    ledger = Ledger({COMPANY: 1_000_000})
    ledger.frozen.add("emp:cho")
    with pytest.raises(FrozenAccount):
        run_payroll(ledger, SLIPS)
    ledger.frozen.clear()
    run_payroll(ledger, SLIPS[2:])
    assert ledger.balances["emp:cho"] == 170_000
    assert ledger.atomic.depth == 0
