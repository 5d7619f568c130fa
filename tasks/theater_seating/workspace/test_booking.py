import pytest

from booking import BoxOffice
from pricing import PriceBands
from seatmap import SOLD, SeatMap, SeatTaken


def office():
    return BoxOffice(SeatMap("ABCD", 6), price=25)


def test_hold_and_checkout_charges_per_seat():
    box = office()
    box.hold("ana", ["A1", "A2"])
    assert box.checkout("ana") == 50
    assert box.seatmap.state("A1") == SOLD


def test_remaining_after_a_sale():
    box = office()
    box.hold("ana", ["B3", "B4"])
    box.checkout("ana")
    assert box.remaining() == 22, "\n" + box.seatmap.render()


def test_two_customers_same_seat_number_in_different_rows():
    box = office()
    box.hold("ana", ["A5"])
    box.hold("ben", ["C5"])
    assert box.checkout("ben") == 25


def test_same_seat_twice_is_refused():
    box = office()
    box.hold("ana", ["D1"])
    with pytest.raises(SeatTaken):
        box.hold("ben", ["D1", "D2"])


def test_release_returns_seats():
    box = office()
    box.hold("ana", ["A1"])
    box.release("ana")
    box.hold("ben", ["A1"])
    assert box.checkout("ben") == 25


def test_unknown_seat():
    with pytest.raises(ValueError):
        office().hold("ana", ["Z1"])


def test_best_block_is_central_in_the_front_row():
    box = office()
    assert box.hold_best("cam", 2) == ["A3", "A4"]


def test_group_of_six_gets_the_discount_with_row_bands():
    box = BoxOffice(SeatMap("ABC", 8), PriceBands(2500, {"A": 4000}))
    seats = box.hold_best("school", 6)
    # six front-row seats at 40.00, minus 10 %
    assert (seats[0], box.checkout("school")) == ("A2", 21600)
