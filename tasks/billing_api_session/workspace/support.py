"""Support-desk workflows built on the billing client."""
from client import ApiError


def goodwill_credit(client, account_id, invoice_id, percent):
    """Credit `percent` of an invoice back to the customer; return the credit or None if no invoice."""
    if not 0 < percent <= 100:
        raise ValueError(f"percent must be in (0, 100], got {percent}")
    client._session.use_account(account_id)
    try:
        invoice = client.invoice(invoice_id)
    except ApiError as exc:
        if exc.status == 404:
            return None
        raise
    amount = invoice["total_cents"] * percent // 100
    return client.add_credit(amount, f"goodwill on {invoice_id}")


def open_balance(client, account_id):
    client._session.use_account(account_id)
    return sum(inv["total_cents"] for inv in client.list_invoices() if not inv["paid"])
