"""The monthly billing run: charge every open invoice once and report what happened."""
from dataclasses import dataclass, field

from payments import PaymentFailed


@dataclass
class Invoice:
    invoice_id: str
    customer: str
    card: str
    amount_cents: int
    status: str = "open"
    charge_id: str = ""


@dataclass
class RunReport:
    charged: list = field(default_factory=list)
    failed: dict = field(default_factory=dict)

    @property
    def total_cents(self):
        return sum(amount for _, amount in self.charged)


def billing_run(client, invoices):
    report = RunReport()
    for invoice in sorted(invoices, key=lambda i: i.invoice_id):
        if invoice.status != "open":
            continue
        try:
            charge = client.charge(invoice.invoice_id, invoice.card, invoice.amount_cents)
        except PaymentFailed as exc:
            invoice.status = "failed"
            report.failed[invoice.invoice_id] = exc.reason
            continue
        invoice.status = "paid"
        invoice.charge_id = charge["id"]
        report.charged.append((invoice.invoice_id, invoice.amount_cents))
    return report


def reconcile(provider, invoices):
    """Invoice ids whose provider-side total differs from what we billed them."""
    billed = {}
    for inv in invoices:
        if inv.status == "paid":
            billed[inv.card] = billed.get(inv.card, 0) + inv.amount_cents
    return sorted(card for card in set(billed) | {c["card"] for c in provider.charges} if provider.total_charged(card) != billed.get(card, 0))
