from datetime import date

import pytest

from bookings import Boat, BookingRefused
from dives import DivePlan, UnsafePlan, gas_needed_bar
from gear import parse_inventory
from locker import Locker, NoGear
from invoices import invoice_lines, rental_charges
from servicing import due_for_service, utilisation
from trips import run_trip, summary

DAY = date(2027, 6, 12)
INVENTORY = [
    "R1 regulator - 2027-12-01", "R2 regulator - 2027-12-01",
    "B1 bcd M 2027-12-01", "B2 bcd L 2027-12-01",
    "C1 computer - 2027-06-01", "C2 computer - 2028-01-01", "C3 computer - 2028-01-01",
    "T1 tank - 2028-03-01", "T2 tank - 2028-03-01",
]
SHALLOW = DivePlan("Coral Garden", 12, 40)
DEEP = DivePlan("The Wall", 30, 25)


def test_dive_limits_and_gas():
    assert SHALLOW.check()
    with pytest.raises(UnsafePlan):
        DEEP.check()
    assert gas_needed_bar(SHALLOW) == 220


def test_kit_goes_back_after_a_dive():
    locker = Locker(parse_inventory(INVENTORY))
    with locker.kit("ana", DAY, {"bcd": "M"}) as kit:
        assert kit["computer"].tag == "C2"
        assert locker.available("bcd") == ["B2"]
    assert locker.out == {}
    assert locker.items["B1"].dives == 1


def test_no_kit_when_sizes_run_out():
    locker = Locker(parse_inventory(INVENTORY))
    with locker.kit("ana", DAY, {"bcd": "M"}):
        with pytest.raises(NoGear):
            with locker.kit("ben", DAY, {"bcd": "M"}):
                pass
        assert sorted(locker.out) == ["B1", "C2", "R1", "T1"]


def test_aborted_dive_returns_the_gear():
    locker = Locker(parse_inventory(INVENTORY))
    log = run_trip(locker, DAY, DEEP, {"cy": {"bcd": "L"}})
    assert list(log.aborted) == ["cy"]
    assert summary(log) == "0 dived, 1 stayed on the boat"
    assert locker.out == {}
    assert locker.available("bcd", "L") == ["B2"]


def test_trip_after_an_abort():
    locker = Locker(parse_inventory(INVENTORY))
    run_trip(locker, DAY, DivePlan("Blue Hole", 18, 30), {"dee": {"bcd": "M"}, "eli": {"bcd": "L"}}, tank_bar=250)
    run_trip(locker, DAY, DEEP, {"fay": {"bcd": "M"}})
    log = run_trip(locker, DAY, SHALLOW, {"gus": {"bcd": "M"}, "hal": {"bcd": "L"}}, tank_bar=230)
    assert log.dived == ["gus", "hal"]
    assert utilisation(locker) == {"bcd": 4, "computer": 4, "regulator": 4, "tank": 4}


def test_service_list():
    locker = Locker(parse_inventory(INVENTORY))
    locker.items["R2"].dives = 97
    assert due_for_service(locker, DAY) == [("C1", "date"), ("R2", "dives")]


def test_boat_bookings():
    boat = Boat("Manta", seats=2)
    assert boat.book("ana", "advanced", DEEP) == 1
    with pytest.raises(BookingRefused, match="limited to 18 m"):
        boat.book("ben", "open water", DEEP)
    boat.book("ben", "open water", SHALLOW)
    with pytest.raises(BookingRefused, match="full"):
        boat.book("cy", "deep", SHALLOW)
    boat.cancel("ana")
    assert boat.free_seats() == 1


def test_rental_invoice():
    locker = Locker(parse_inventory(INVENTORY))
    run_trip(locker, DAY, SHALLOW, {"ana": {"bcd": "M"}}, tank_bar=230)
    run_trip(locker, DAY, SHALLOW, {"ana": {"bcd": "M"}}, tank_bar=230)
    assert rental_charges(locker) == {(DAY, "ana"): 3000}
    assert invoice_lines(locker, "ana") == ["2027-06-12 gear hire 30.00"]
