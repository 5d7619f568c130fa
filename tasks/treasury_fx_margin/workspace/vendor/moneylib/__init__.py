"""moneylib: exact money amounts, currencies with minor units, and conversion tables."""
from .currency import Currency, UnknownCurrency, currency
from .money import CurrencyMismatch, Money
from .rates import MissingRate, RateTable

__all__ = ["Currency", "CurrencyMismatch", "MissingRate", "Money", "RateTable", "UnknownCurrency", "currency"]
__version__ = "2.1.0"
