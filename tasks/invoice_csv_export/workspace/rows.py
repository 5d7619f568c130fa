"""Turn invoice records into CSV rows for the monthly finance export."""
from decimal import Decimal, InvalidOperation

COLUMNS = ("invoice_id", "customer", "issued", "net", "vat", "gross")


class InvalidInvoice(ValueError):
    """An invoice that cannot be exported; the message names the invoice and the field."""


def _money(invoice_id, field, raw):
    try:
        value = Decimal(str(raw))
    except InvalidOperation:
        raise InvalidInvoice(f"invoice {invoice_id}: {field} is not a number: {raw!r}") from None
    if value < 0:
        raise InvalidInvoice(f"invoice {invoice_id}: {field} is negative: {value}")
    return value.quantize(Decimal("0.01"))


def invoice_row(invoice):
    """One CSV row (a tuple of strings, in COLUMNS order) for an invoice dict."""
    invoice_id = invoice.get("id")
    if not invoice_id:
        raise InvalidInvoice(f"invoice without an id: {invoice!r}")
    net = _money(invoice_id, "net", invoice.get("net"))
    vat = _money(invoice_id, "vat", invoice.get("vat", 0))
    return (
        str(invoice_id),
        invoice.get("customer", ""),
        invoice.get("issued", ""),
        str(net),
        str(vat),
        str(net + vat),
    )
