from datetime import date

import pytest

from reservations import ReservationBook, RoomUnavailable
from rooms import Room, RoomInventory
from stay import Stay


def book():
    inventory = RoomInventory([
        Room("101", "double", 12000, 2),
        Room("102", "double", 14000, 2),
        Room("201", "suite", 30000, 4),
    ])
    return ReservationBook(inventory)


def stay(a, b):
    return Stay(date(2024, 6, a), date(2024, 6, b))


def test_booking_prices_every_night():
    r = book().book("ada", "101", stay(3, 6))
    assert r.total_cents == 3 * 12000


def test_overlapping_stay_is_refused():
    b = book()
    b.book("ada", "101", stay(3, 6))
    with pytest.raises(RoomUnavailable):
        b.book("bob", "101", stay(5, 8))


def test_next_guest_can_arrive_on_checkout_day():
    b = book()
    b.book("ada", "101", stay(3, 6))
    r = b.book("bob", "101", stay(6, 8))
    assert r.room_number == "101"


def test_book_any_prefers_cheapest_room_free_for_the_stay():
    b = book()
    b.book("ada", "101", stay(1, 4))
    r = b.book_any("cy", "double", stay(4, 7))
    assert r.room_number == "101", f"got room {r.room_number}, expected the cheaper 101 that frees up on the 4th"


def test_occupancy_counts_nights_not_checkout_mornings():
    b = book()
    b.book("ada", "101", stay(3, 6))
    assert b.occupancy(date(2024, 6, 5)) == ["101"]
    assert b.occupancy(date(2024, 6, 6)) == []


def test_stay_must_last_a_night():
    with pytest.raises(ValueError):
        stay(4, 4)
