import pytest

from fares import change_cost, is_upgrade
from itinerary import Itinerary, Leg, Passenger
from pnr import split
from rebooking import ChangeError, accept, confirmation, propose_change
from schedule import Schedule, ScheduledFlight
from seating import SeatError, assign_party, parse_seat

SCHEDULE = Schedule([
    ScheduledFlight("LX318", "ZRH", "LHR", "2026-05-04T07:10", {"M": 9, "B": 2}),
    ScheduledFlight("LX324", "ZRH", "LHR", "2026-05-04T13:40", {"M": 1, "B": 4}),
    ScheduledFlight("LX332", "ZRH", "LHR", "2026-05-04T18:05", {"M": 6}),
    ScheduledFlight("LX319", "LHR", "ZRH", "2026-05-09T09:00", {"M": 5}),
])


def make_booking():
    return Itinerary("QX7K2A", [Passenger("Ada Roth"), Passenger("Ben Roth", "LX-8812")], [
        Leg("LX318", "ZRH", "LHR", "2026-05-04T07:10", "M", {"Ada Roth": "12A", "Ben Roth": "12B"}, {"Ada Roth": 1}),
        Leg("LX319", "LHR", "ZRH", "2026-05-09T09:00", "M", {"Ada Roth": "20C", "Ben Roth": "20D"}, {"Ada Roth": 1, "Ben Roth": 1}),
    ])


def test_schedule_alternatives():
    assert [f.flight for f in SCHEDULE.alternatives("ZRH", "LHR", "M", exclude={"LX318"})] == ["LX324", "LX332"]


def test_change_cost():
    booking = make_booking()
    new = Leg("LX324", "ZRH", "LHR", "2026-05-04T13:40", "B")
    assert change_cost(booking.legs[0], new, 2) == 2 * 10_000 + 2 * 7_000
    assert is_upgrade("M", "B") and not is_upgrade("M", "K")


def test_proposal_has_the_new_flight():
    proposal = propose_change(make_booking(), 0, "LX332", SCHEDULE)
    assert proposal.proposed.legs[0].flight == "LX332" and proposal.proposed.legs[0].seats == {}
    assert proposal.cost_cents == 20_000


def test_proposal_leaves_the_booking_unchanged():
    booking = make_booking()
    before = booking.summary()
    proposal = propose_change(booking, 0, "LX332", SCHEDULE)
    assert booking.summary() == before
    assert booking.seat_map()["LX318"] == {"Ada Roth": "12A", "Ben Roth": "12B"}
    assert proposal.proposed.history == ["changed leg 0 to LX332"] and booking.history == []


def test_refused_proposals():
    booking = make_booking()
    with pytest.raises(ChangeError, match="no M seats for 2"):
        propose_change(booking, 0, "LX324", SCHEDULE)
    with pytest.raises(ChangeError, match="not ZRH-LHR"):
        propose_change(booking, 0, "LX319", SCHEDULE)


def test_accept_replaces_the_stored_booking():
    booking = make_booking()
    store = {booking.pnr: booking}
    proposal = propose_change(booking, 0, "LX332", SCHEDULE)
    accept(proposal, store)
    assert store["QX7K2A"].legs[0].flight == "LX332"
    with pytest.raises(ChangeError, match="changed since"):
        accept(propose_change(booking, 0, "LX318", SCHEDULE), store)


def test_split_moves_a_passenger():
    booking = make_booking()
    new = split(booking, ["Ben Roth"])
    assert new.pnr == "QX7K21" and [p.name for p in new.passengers] == ["Ben Roth"]
    assert [p.name for p in booking.passengers] == ["Ada Roth"]


def test_split_keeps_seats_and_bags_on_both_bookings():
    booking = make_booking()
    new = split(booking, ["Ben Roth"], taken={"QX7K21"})
    assert new.pnr == "QX7K22"
    assert booking.seat_map() == {"LX318": {"Ada Roth": "12A"}, "LX319": {"Ada Roth": "20C"}}
    assert new.seat_map() == {"LX318": {"Ben Roth": "12B"}, "LX319": {"Ben Roth": "20D"}}
    assert new.legs[1].bags == {"Ben Roth": 1} and booking.legs[1].bags == {"Ada Roth": 1}


def test_seats_on_the_new_flight_and_confirmation():
    proposal = propose_change(make_booking(), 0, "LX332", SCHEDULE)
    leg = proposal.proposed.legs[0]
    taken = [f"10{c}" for c in "ABCDE"] + ["11A", "11C"]
    assert assign_party(leg, ["Ada Roth", "Ben Roth"], taken) == {"Ada Roth": "11B", "Ben Roth": "11D"}
    text = confirmation(proposal).splitlines()
    assert text[1:4] == ["  was: LX318 ZRH-LHR 2026-05-04 07:10", "  now: LX332 ZRH-LHR 2026-05-04 18:05", "  Ada Roth: seat 11B"]
    assert text[-1] == "  charged: CHF 200.00"
    with pytest.raises(SeatError):
        parse_seat("7Z")
