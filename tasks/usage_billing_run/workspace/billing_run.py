"""Monthly billing run: one invoice per account, plus the revenue summary finance reconciles against."""
from decimal import Decimal

from invoice import Invoice
from pricing import Account, PriceBook

TAX_RATES = {"us": Decimal("0"), "eu": Decimal("0.20"), "uk": Decimal("0.20")}


class BillingRun:
    def __init__(self, price_book: PriceBook, period: str):
        self.price_book = price_book
        self.period = period

    def invoice_for(self, account: Account) -> Invoice:
        invoice = Invoice(account.account_id, self.period, tax_rate=TAX_RATES[account.region])
        for item in self.price_book.charges_for(account):
            invoice.add_line(item)
        return invoice

    def run(self, accounts: list[Account]) -> dict[str, Invoice]:
        invoices: dict[str, Invoice] = {}
        for account in accounts:
            if account.account_id in invoices:
                raise ValueError(f"account {account.account_id} appears twice in the run")
            invoices[account.account_id] = self.invoice_for(account)
        return invoices


def revenue(invoices: dict[str, Invoice]) -> Decimal:
    """Net revenue (before tax) across the run."""
    return sum((inv.subtotal() for inv in invoices.values()), Decimal("0"))
