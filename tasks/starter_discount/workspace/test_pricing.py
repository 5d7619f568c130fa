import pytest

from pricing import apply_discount


def test_twenty_percent_off():
    assert apply_discount(50.0, 0.2) == 40.0


def test_no_discount_keeps_price():
    assert apply_discount(19.99, 0) == 19.99


def test_rate_out_of_range_is_refused():
    with pytest.raises(ValueError):
        apply_discount(10.0, 1.5)
