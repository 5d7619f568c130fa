"""ISO 4217 currencies and their minor units."""
from dataclasses import dataclass
from decimal import Decimal


class UnknownCurrency(LookupError):
    pass


@dataclass(frozen=True)
class Currency:
    code: str
    minor_units: int

    @property
    def quantum(self):
        return Decimal(1).scaleb(-self.minor_units)


_REGISTRY = {
    code: Currency(code, units)
    for code, units in (("EUR", 2), ("USD", 2), ("GBP", 2), ("CHF", 2), ("JPY", 0), ("SEK", 2), ("KWD", 3))
}


def currency(code):
    try:
        return _REGISTRY[code.upper()]
    except KeyError:
        raise UnknownCurrency(code) from None
