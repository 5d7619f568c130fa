"""The ledger on disk: one JSON document with every invoice, readable by the accountant's spreadsheet import."""
import json
from decimal import Decimal
from pathlib import Path

from invoices import Invoice, LineItem


class LedgerEncoder(json.JSONEncoder):
    """Writes Decimals as JSON numbers so spreadsheets can sum the columns."""

    def default(self, o):
        if isinstance(o, Decimal):
            return float(o)
        return super().default(o)


def save_ledger(invoices, path: Path) -> None:
    doc = [
        {
            "number": inv.number,
            "client": inv.client,
            "vat_rate": inv.vat_rate,
            "lines": [{"description": l.description, "hours": l.hours, "rate": l.rate} for l in inv.lines],
            "payments": inv.payments,
        }
        for inv in invoices
    ]
    Path(path).write_text(json.dumps(doc, cls=LedgerEncoder, indent=2))


def load_ledger(path: Path) -> list:
    invoices = []
    # parse_float=Decimal reads each number from its decimal text; Decimal(float) would carry binary rounding error.
    for row in json.loads(Path(path).read_text(), parse_float=Decimal):
        inv = Invoice(row["number"], row["client"], Decimal(row["vat_rate"]))
        inv.lines = [LineItem(l["description"], Decimal(l["hours"]), Decimal(l["rate"])) for l in row["lines"]]
        inv.payments = [Decimal(p) for p in row["payments"]]
        invoices.append(inv)
    return invoices
