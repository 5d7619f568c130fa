"""Money helpers shared by invoicing and tax filing."""
from decimal import Decimal, InvalidOperation

CENT = Decimal("0.01")


def to_cents(amount: Decimal) -> Decimal:
    """Round an amount to whole cents."""
    return amount.quantize(CENT)


def parse_amount(text: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"not an amount: {text!r}") from None
    if not value.is_finite():
        raise ValueError(f"not an amount: {text!r}")
    return value
