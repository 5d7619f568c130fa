import json
import threading
from decimal import Decimal

import pytest

from converter import CurrencyConverter, UnknownCurrency
from money import Money
from rate_provider import JsonRateProvider


@pytest.fixture
def rates_file(tmp_path):
    path = tmp_path / "rates.json"
    path.write_text(json.dumps({"base": "EUR", "rates": {"USD": "1.0850", "GBP": "0.8500", "JPY": "160.25"}}))
    return path


class SlowProvider(JsonRateProvider):
    """Counts fetches; the first fetch stalls until `release` is set, like a slow rates API."""

    def __init__(self, path):
        super().__init__(path)
        self.fetches = 0
        self.started = threading.Event()
        self.release = threading.Event()

    def fetch(self):
        self.fetches += 1
        self.started.set()
        self.release.wait(5)
        return super().fetch()


def test_convert_between_non_base_currencies(rates_file):
    converter = CurrencyConverter(JsonRateProvider(rates_file))
    assert converter.convert(Money("100", "USD"), "GBP") == Money(Decimal("78.34"), "GBP")
    assert converter.convert(Money("10", "EUR"), "JPY") == Money(Decimal("1602.50"), "JPY")


def test_unknown_currency(rates_file):
    converter = CurrencyConverter(JsonRateProvider(rates_file))
    with pytest.raises(UnknownCurrency):
        converter.convert(Money("1", "EUR"), "CHF")


def test_rates_are_fetched_once(rates_file):
    provider = SlowProvider(rates_file)
    provider.release.set()
    converter = CurrencyConverter(provider)
    for _ in range(3):
        converter.convert(Money("1", "USD"), "EUR")
    assert provider.fetches == 1


def first_use_from_two_threads(rates_file):
    provider = SlowProvider(rates_file)
    converter = CurrencyConverter(provider)
    results, errors = {}, []

    def convert(name, amount, target):
        try:
            results[name] = converter.convert(amount, target)
        except Exception as exc:
            errors.append(exc)

    first = threading.Thread(target=convert, args=("first", Money("100", "USD"), "GBP"), daemon=True)
    first.start()
    assert provider.started.wait(2)
    second = threading.Thread(target=convert, args=("second", Money("20", "EUR"), "USD"), daemon=True)
    second.start()
    second.join(1)  # the second caller runs into the load in progress
    provider.release.set()
    first.join(2)
    second.join(2)
    assert not first.is_alive() and not second.is_alive()
    return provider, results, errors


def test_concurrent_first_use_sees_full_rate_table(rates_file):
    provider, results, errors = first_use_from_two_threads(rates_file)
    assert errors == [], f"conversion failed during first use: {errors}"
    assert results["second"] == Money(Decimal("21.70"), "USD")


def test_concurrent_first_use_fetches_rates_once(rates_file):
    provider, results, errors = first_use_from_two_threads(rates_file)
    assert len(results) == 2
    assert provider.fetches == 1, f"rates fetched {provider.fetches} times"


def test_price_list_displays_in_shopper_currency(rates_file):
    from price_display import PriceList

    prices = PriceList(CurrencyConverter(JsonRateProvider(rates_file)))
    prices.set_price("LAMP-3", "1234.5")
    assert prices.display("LAMP-3", "EUR") == "€1,234.50"
    assert prices.display("LAMP-3", "USD") == "$1,339.43"
    assert prices.display("LAMP-3", "JPY") == "¥197,829"
