import threading
from decimal import Decimal

import pytest

from bookings import BookingBook, BookingConflict
from calendar_view import day_grid, revenue, utilisation
from desks import DeskError, floor_plan
from pricing import cancellation_fee

PLAN = "A1:monitor,window A2 A3:standing B1:quiet"


def book():
    return BookingBook(floor_plan(PLAN))


def test_floor_plan():
    desks = floor_plan(PLAN)
    assert [(d.code, d.floor) for d in desks] == [("A1", 1), ("A2", 1), ("A3", 1), ("B1", 2)]
    with pytest.raises(DeskError):
        floor_plan("A1:jacuzzi")


def test_booking_and_conflicts():
    b = book()
    b.book("A1", "2026-06-01", "am", "ana")
    b.book("A1", "2026-06-01", "pm", "ben")
    with pytest.raises(BookingConflict):
        b.book("A1", "2026-06-01", "day", "cai")
    assert b.free_desks("2026-06-01", "am", wanted=("standing",)) == ["A3"]


def test_prices():
    b = book()
    ref = b.book("A1", "2026-06-01", "day", "ana", is_member=True)
    assert b.bookings[ref].amount == Decimal("22.80")
    assert cancellation_fee(Decimal("20.00"), 5) == Decimal("10.00")


def test_cancel_frees_the_desk_and_charges_a_fee():
    b = book()
    ref = b.book("A2", "2026-06-02", "day", "dee")
    assert b.cancel(ref, hours_before=2) == Decimal("24.00")
    assert b.free_desks("2026-06-02", "am") == ["A1", "A2", "A3", "B1"]


def test_unknown_cancel_is_ignored():
    b = book()
    assert b.cancel("BK9999", 48) is None
    assert b.book("A2", "2026-06-02", "am", "eve") == "BK0001"


def test_booking_after_a_cancel_from_another_thread():
    b = book()
    ref = b.book("B1", "2026-06-03", "am", "fay")
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("fee", b.cancel(ref, 30)), daemon=True)
    t.start()
    t.join(timeout=2)
    assert not t.is_alive(), "cancel hung"
    assert out.get("fee") == Decimal("0.00")
    assert b.book("B1", "2026-06-03", "am", "gus") == "BK0002"


def test_grid_utilisation_and_revenue():
    b = book()
    b.book("A1", "2026-06-04", "am", "hannah")
    ref = b.book("A3", "2026-06-04", "day", "ian")
    b.cancel(ref, 10)
    assert day_grid(b, "2026-06-04")[0] == "A1  |hannah|  --  |"
    assert utilisation(b, "2026-06-04") == 12.5
    assert revenue(b) == "31.50"


def test_waitlist_gets_the_cancelled_desk():
    from waitlist import Waitlist, Wish

    b = BookingBook(floor_plan("A1:monitor"))
    ref = b.book("A1", "2026-06-05", "day", "jo")
    wl = Waitlist(b)
    wl.join(Wish("kai", "2026-06-05", "am", ("monitor",)))
    wl.join(Wish("lee", "2026-06-05", "pm"))
    assert wl.position("lee", "2026-06-05") == 2
    fee, placed = wl.cancel_and_offer(ref, 48)
    assert fee == Decimal("0.00")
    assert placed == [("kai", "BK0002"), ("lee", "BK0003")]
    assert list(wl.queue) == []


def test_member_invoice():
    from calendar_view import member_invoice

    b = book()
    b.book("A2", "2026-06-07", "pm", "max")
    b.book("A1", "2026-06-06", "day", "max", is_member=True)
    assert member_invoice(b, "max") == ["2026-06-06 A1 full day: 22.80", "2026-06-07 A2 half day (pm): 14.00", "total: 36.80"]
