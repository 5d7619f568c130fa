from decimal import Decimal as D

import pytest

from company import Company
from departments import Department, OverBudget, SpendingPolicy, split_off


def acme():
    co = Company("Acme")
    eng = Department("engineering", co.ledger, D("100000"), SpendingPolicy(["vp-eng", "cto"], D("20000")), ["backend", "mobile", "data"])
    co.add(eng)
    eng.spend(D("1200"), "laptops", "vp-eng")
    return co, eng


def test_spending_is_booked():
    co, eng = acme()
    eng.spend(D("300"), "licences", "cto")
    assert co.expenses() == D("1500")
    assert co.reconcile() == {}


def test_limits_and_approvers():
    co, eng = acme()
    with pytest.raises(OverBudget):
        eng.spend(D("25000"), "cluster", "cto")
    with pytest.raises(PermissionError):
        eng.spend(D("10"), "snacks", "intern")


def test_split_department_gets_its_own_approvers():
    co, eng = acme()
    data = split_off(eng, "data", ["data"], D("30000"))
    data.policy.approvers.append("head-of-data")
    assert eng.policy.approvers == ["vp-eng", "cto"]
    assert (eng.cost_centers, data.cost_centers) == (["backend", "mobile"], ["data"])
    assert (eng.budget, data.budget) == (D("70000"), D("30000"))


def test_books_include_spending_after_a_reorg():
    co, eng = acme()
    data = split_off(eng, "data", ["data"], D("30000"))
    co.add(data)
    data.spend(D("5000"), "warehouse credits", "cto")
    eng.spend(D("800"), "monitors", "vp-eng")
    assert co.expenses() == D("7000"), f"books show {co.expenses()}"


def test_reconciliation_after_a_reorg():
    co, eng = acme()
    data = split_off(eng, "data", ["data"], D("30000"))
    co.add(data)
    data.spend(D("450"), "training", "vp-eng")
    assert co.reconcile() == {}, co.reconcile()
