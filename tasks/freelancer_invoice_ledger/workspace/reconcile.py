"""Matches bank transfers to invoices and lists what is still open."""
from decimal import Decimal
from pathlib import Path

from ledger_file import load_ledger, save_ledger


class Books:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.invoices = {inv.number: inv for inv in load_ledger(self.path)} if self.path.exists() else {}

    def add(self, invoice) -> None:
        self.invoices[invoice.number] = invoice
        save_ledger(self.invoices.values(), self.path)

    def record_transfer(self, reference: str, amount: Decimal) -> None:
        """Bank references carry the invoice number, e.g. ``"INV-2024-031 thank you"``."""
        number = reference.split()[0]
        if number not in self.invoices:
            raise KeyError(f"no invoice {number} for transfer {reference!r}")
        self.invoices[number].payments.append(Decimal(amount))
        save_ledger(self.invoices.values(), self.path)

    def open_invoices(self) -> dict:
        return {n: inv.outstanding for n, inv in sorted(self.invoices.items()) if inv.outstanding != 0}
