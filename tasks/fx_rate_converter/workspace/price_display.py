"""Showing converted prices to shoppers in their own currency."""
from decimal import ROUND_HALF_UP, Decimal

from converter import CurrencyConverter
from money import Money

# Currencies shown without minor units, and the symbol used for each currency.
ZERO_DECIMAL = {"JPY", "KRW", "HUF"}
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥"}


def format_price(money):
    """'$1,234.50' style text; unknown currencies fall back to a code suffix."""
    places = Decimal("1") if money.currency in ZERO_DECIMAL else Decimal("0.01")
    amount = money.amount.quantize(places, rounding=ROUND_HALF_UP)
    text = f"{amount:,}"
    symbol = SYMBOLS.get(money.currency)
    return f"{symbol}{text}" if symbol else f"{text} {money.currency}"


class PriceList:
    """Catalog prices kept in the shop's base currency, displayed in any other."""

    def __init__(self, converter, base_currency="EUR"):
        if not isinstance(converter, CurrencyConverter):
            raise TypeError("PriceList needs a CurrencyConverter")
        self._converter = converter
        self._base = base_currency
        self._prices = {}

    def set_price(self, sku, amount):
        amount = Decimal(str(amount))
        if amount < 0:
            raise ValueError(f"price of {sku} must not be negative")
        self._prices[sku] = Money(amount, self._base)

    def price(self, sku, currency):
        try:
            base_price = self._prices[sku]
        except KeyError:
            raise KeyError(f"no price for {sku}") from None
        if currency == self._base:
            return base_price
        return self._converter.convert(base_price, currency)

    def display(self, sku, currency):
        return format_price(self.price(sku, currency))
