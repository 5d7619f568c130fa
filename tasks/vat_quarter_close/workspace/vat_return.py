"""Quarterly VAT return. The tax authority's form wants every box truncated to the cent, not rounded."""
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_DOWN, Context, Decimal, getcontext

from invoicing import Invoice
from money import CENT


@dataclass(frozen=True)
class VatReturn:
    quarter: str
    box_net_sales: Decimal
    box_vat_due: Decimal


def quarter_of(day: date) -> str:
    return f"{day.year}-Q{(day.month - 1) // 3 + 1}"


def _authority_context() -> Context:
    ctx = getcontext()
    ctx.rounding = ROUND_DOWN
    return ctx


def prepare_return(invoices: list[Invoice], quarter: str) -> VatReturn:
    ctx = _authority_context()
    net = vat = Decimal(0)
    for invoice in invoices:
        if quarter_of(invoice.issued_on) != quarter:
            raise ValueError(f"invoice {invoice.number} was issued in {quarter_of(invoice.issued_on)}, not {quarter}")
        for line in invoice.lines:
            # Unrounded line figures: the form truncates the sums, not each line.
            line_net = line.quantity * line.unit_price
            net += line_net
            vat += line_net * line.vat_rate
    return VatReturn(quarter, net.quantize(CENT, context=ctx), vat.quantize(CENT, context=ctx))
