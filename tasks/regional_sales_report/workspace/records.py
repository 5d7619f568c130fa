"""Parses the nightly sales export (CSV with a header row) into Sale records."""

import csv
import io
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation


@dataclass(frozen=True)
class Sale:
    order_id: str
    region: str
    day: date
    amount: Decimal
    currency: str = "USD"


def in_period(sales, first_day, last_day):
    """Sales dated from `first_day` to `last_day`, both included (a month report runs 1st to last)."""
    if last_day < first_day:
        raise ValueError(f"period ends {last_day} before it starts {first_day}")
    return [s for s in sales if first_day <= s.day <= last_day]


def parse_sales(text):
    sales = []
    for lineno, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        try:
            amount = Decimal(row["amount"])
            day = date.fromisoformat(row["date"])
        except (InvalidOperation, ValueError) as exc:
            raise ValueError(f"line {lineno}: {exc}") from None
        currency = (row.get("currency") or "USD").strip().upper()
        sales.append(Sale(row["order_id"], row["region"].strip().upper(), day, amount, currency))
    return sales
