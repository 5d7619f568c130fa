"""Customer billing portal: the account page and the outstanding balance banner."""
from repositories import CustomerRepository, Database, InvoiceRepository


class BillingPortal:
    def __init__(self, db: Database):
        self.customers = CustomerRepository(db)
        self.invoices = InvoiceRepository(db)

    def account_page(self, customer_id: int) -> dict:
        customer = self.customers.get(customer_id)
        rows = []
        for invoice_id in customer.invoice_ids:
            inv = self.invoices.get(invoice_id)
            rows.append({"invoice": inv.invoice_id, "amount": f"{inv.amount_cents / 100:.2f}", "paid": inv.paid})
        return {"name": customer.name, "invoices": rows}

    def outstanding_banner(self, invoice_id: int) -> str:
        """Shown on an unpaid invoice's page: whose it is and how much is due."""
        inv = self.invoices.get(invoice_id)
        if inv.paid:
            return ""
        customer = self.customers.get(inv.customer_id)
        return f"{customer.name}: {inv.amount_cents / 100:.2f} due"
