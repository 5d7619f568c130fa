from datetime import date
from decimal import Decimal

import pytest

from budget import category, totals
from statement import StatementFormatError
from transactions import load

EXPORT = """Booking date;Amount;Counterparty;IBAN;Memo
01.03.2024;2.950,00;Acme GmbH;DE44500105175407324931;Salary March
02.03.2024;-1.100,00;Hausverwaltung Ost;DE89 3704 0044 0532 0130 00;Miete 03/2024
05.03.2024;-64,30;Stadtwerke;DE02 1203 0000 0000 2020 51;Abschlag Strom
07.03.2024;-38,15;Corner Grocer;DE75512108001245126199;Grocer card 4411
"""


def test_amounts_and_dates():
    txns = load(EXPORT)
    assert [t.amount for t in txns] == [Decimal("2950.00"), Decimal("-1100.00"), Decimal("-64.30"), Decimal("-38.15")]
    assert txns[1].booked == date(2024, 3, 2)
    assert txns[3].counterparty == "Corner Grocer"


def test_each_transaction_is_categorized():
    assert [category(t) for t in load(EXPORT)] == ["income", "rent", "utilities", "groceries"]


def test_monthly_totals():
    assert totals(load(EXPORT)) == {
        "income": Decimal("2950.00"),
        "rent": Decimal("-1100.00"),
        "utilities": Decimal("-64.30"),
        "groceries": Decimal("-38.15"),
    }


def test_dispute_shows_the_original_line():
    txns = load(EXPORT)
    assert txns[0].raw["_line"] == "2", txns[0].raw


def test_bad_amount_names_the_line():
    bad = EXPORT.replace("-64,30", "-64,3O")
    with pytest.raises(StatementFormatError, match="line 4"):
        load(bad)


def test_missing_column():
    with pytest.raises(StatementFormatError, match="IBAN"):
        load("Booking date;Amount;Counterparty;Memo\n")
