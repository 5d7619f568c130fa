from decimal import Decimal

import pytest

from invoices import Invoice
from reconcile import Books


def consulting_invoice():
    inv = Invoice("INV-2024-031", "Acme GmbH")
    inv.bill("architecture review", "2.5", "87.35")
    inv.bill("workshop", "6", "95.00")
    return inv


def test_line_amounts_round_half_up():
    inv = consulting_invoice()
    assert [line.amount for line in inv.lines] == [Decimal("218.38"), Decimal("570.00")]
    # net 788.38; VAT 19% = 149.7922 -> 149.79
    assert inv.total == Decimal("938.17")


def test_full_payment_closes_the_invoice(tmp_path):
    books = Books(tmp_path / "ledger.json")
    books.add(consulting_invoice())
    books.record_transfer("INV-2024-031 thanks!", Decimal("938.17"))
    assert books.open_invoices() == {}


def test_partial_payment_leaves_the_rest_open(tmp_path):
    books = Books(tmp_path / "ledger.json")
    books.add(consulting_invoice())
    books.record_transfer("INV-2024-031", Decimal("500.00"))
    assert books.open_invoices() == {"INV-2024-031": Decimal("438.17")}


def test_unknown_reference_is_rejected(tmp_path):
    books = Books(tmp_path / "ledger.json")
    with pytest.raises(KeyError):
        books.record_transfer("INV-1999-001", Decimal("1.00"))


def test_payment_booked_after_reopening_the_books(tmp_path):
    Books(tmp_path / "ledger.json").add(consulting_invoice())
    books = Books(tmp_path / "ledger.json")
    books.record_transfer("INV-2024-031", Decimal("938.17"))
    assert books.open_invoices() == {}


def test_reopened_books_show_the_same_totals(tmp_path):
    books = Books(tmp_path / "ledger.json")
    books.add(consulting_invoice())
    books.record_transfer("INV-2024-031", Decimal("500.00"))
    assert Books(tmp_path / "ledger.json").open_invoices() == books.open_invoices()
