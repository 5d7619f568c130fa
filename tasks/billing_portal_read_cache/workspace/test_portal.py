import pytest

import caching
from portal import BillingPortal
from repositories import CustomerRepository, Database


@pytest.fixture(autouse=True)
def empty_cache():
    caching.clear()
    yield
    caching.clear()


def billing_db():
    return Database({
        "customers": {
            1: {"name": "Ada Lovelace", "invoice_ids": [1, 2]},
            2: {"name": "Charles Babbage", "invoice_ids": [3]},
        },
        "invoices": {
            1: {"customer_id": 1, "amount_cents": 4500, "paid": True},
            2: {"customer_id": 1, "amount_cents": 1250, "paid": False},
            3: {"customer_id": 2, "amount_cents": 9900, "paid": False},
        },
    })


def test_repeated_lookups_hit_the_cache():
    db = billing_db()
    repo = CustomerRepository(db)
    assert repo.get(2).name == "Charles Babbage"
    assert CustomerRepository(db).get(2).name == "Charles Babbage"
    assert db.reads == 1


def test_rename_is_visible_immediately():
    db = billing_db()
    repo = CustomerRepository(db)
    repo.get(2)
    repo.rename(2, "C. Babbage")
    assert repo.get(2).name == "C. Babbage"


def test_entries_expire_after_their_ttl(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(caching, "clock", lambda: now[0])
    db = billing_db()
    repo = CustomerRepository(db)
    repo.get(2)
    now[0] += 61
    repo.get(2)
    assert db.reads == 2


def test_account_page_lists_the_customers_invoices():
    page = BillingPortal(billing_db()).account_page(1)
    assert page == {
        "name": "Ada Lovelace",
        "invoices": [
            {"invoice": 1, "amount": "45.00", "paid": True},
            {"invoice": 2, "amount": "12.50", "paid": False},
        ],
    }


def test_outstanding_banner_names_the_customer():
    portal = BillingPortal(billing_db())
    assert portal.outstanding_banner(3) == "Charles Babbage: 99.00 due"
    assert portal.outstanding_banner(2) == "Ada Lovelace: 12.50 due"
