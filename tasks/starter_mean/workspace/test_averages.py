import pytest

from averages import mean


def test_mean_of_three():
    assert mean([2, 4, 6]) == 4


def test_mean_of_one():
    assert mean([7]) == 7


def test_empty_is_refused():
    with pytest.raises(ValueError):
        mean([])
