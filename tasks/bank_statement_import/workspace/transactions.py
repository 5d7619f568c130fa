"""Typed transactions built from statement rows."""
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from statement import StatementFormatError, read_rows


@dataclass(frozen=True)
class Transaction:
    booked: date
    amount: Decimal
    counterparty: str
    raw: dict  # the row as exported, kept for disputes and for categorization rules


def parse_amount(text: str) -> Decimal:
    """'-1.234,56' -> Decimal('-1234.56')."""
    try:
        return Decimal(text.replace(".", "").replace(",", "."))
    except InvalidOperation:
        raise StatementFormatError(f"not an amount: {text!r}") from None


def from_row(row: dict[str, str]) -> Transaction:
    try:
        booked = datetime.strptime(row["Booking date"], "%d.%m.%Y").date()
        amount = parse_amount(row["Amount"])
    except (ValueError, StatementFormatError) as e:
        raise StatementFormatError(f"line {row['_line']}: {e}") from None
    return Transaction(booked, amount, row["Counterparty"], row)


def load(text: str) -> list[Transaction]:
    return [from_row(row) for row in read_rows(text)]
