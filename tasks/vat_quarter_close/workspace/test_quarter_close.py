from datetime import date
from decimal import Decimal

import pytest

from invoicing import Invoice, InvoiceLine
from money import parse_amount
from vat_return import prepare_return

D = Decimal


def q1_invoices():
    return [
        Invoice("INV-101", date(2024, 2, 10), [InvoiceLine("consulting", D("3"), D("33.333"), D("0.20"))]),
        Invoice("INV-102", date(2024, 3, 28), [InvoiceLine("licence", D("1"), D("49.995"), D("0.20"))]),
    ]


def test_invoice_line_is_rounded_to_the_nearest_cent():
    line = InvoiceLine("support plan", D("1"), D("12.99"), D("0.20"))
    assert line.vat() == D("2.60")  # 2.598
    assert Invoice("INV-1", date(2024, 4, 2), [line]).gross() == D("15.59")


def test_parse_amount_rejects_garbage():
    with pytest.raises(ValueError):
        parse_amount("12,50")
    assert parse_amount("12.50") == D("12.50")


def test_vat_return_truncates_the_boxes():
    ret = prepare_return(q1_invoices(), "2024-Q1")
    # net 99.999 + 49.995 = 149.994 -> 149.99; vat 29.9988 -> 29.99
    assert (ret.box_net_sales, ret.box_vat_due) == (D("149.99"), D("29.99"))


def test_vat_return_rejects_invoices_from_another_quarter():
    late = Invoice("INV-201", date(2024, 4, 1), [InvoiceLine("x", D("1"), D("1"), D("0.20"))])
    with pytest.raises(ValueError, match="2024-Q2"):
        prepare_return([late], "2024-Q1")


def test_invoice_issued_after_quarter_close_is_rounded_to_the_nearest_cent():
    prepare_return(q1_invoices(), "2024-Q1")
    april = Invoice("INV-202", date(2024, 4, 3), [InvoiceLine("support plan", D("1"), D("12.99"), D("0.20"))])
    assert april.vat() == D("2.60"), f"VAT on INV-202: {april.vat()}"


def test_second_quarter_return_after_first_quarter_close():
    prepare_return(q1_invoices(), "2024-Q1")
    q2 = [Invoice("INV-203", date(2024, 5, 9), [InvoiceLine("training", D("3"), D("4.333"), D("0.20"))])]
    assert q2[0].net() == D("13.00"), f"net on INV-203: {q2[0].net()}"
    ret = prepare_return(q2, "2024-Q2")
    assert ret.box_vat_due == D("2.59")  # 12.999 * 0.20 = 2.5998, truncated
