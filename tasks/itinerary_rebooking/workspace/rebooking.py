"""Voluntary changes: the agent proposes a new flight for a leg, shows the cost, and the customer accepts."""
from dataclasses import dataclass

from fares import change_cost
from itinerary import Itinerary


class ChangeError(RuntimeError):
    pass


@dataclass
class ChangeProposal:
    original: Itinerary
    proposed: Itinerary
    leg_index: int
    cost_cents: int


def propose_change(itinerary, leg_index, new_flight, schedule, fare_class=None):
    if not 0 <= leg_index < len(itinerary.legs):
        raise ChangeError(f"{itinerary.pnr} has no leg {leg_index}")
    old = itinerary.legs[leg_index]
    flight = schedule.get(new_flight)
    if (flight.origin, flight.dest) != (old.origin, old.dest):
        raise ChangeError(f"{new_flight} flies {flight.origin}-{flight.dest}, not {old.route()}")
    fare_class = fare_class or old.fare_class
    if flight.seats_left.get(fare_class, 0) < len(itinerary.passengers):
        raise ChangeError(f"{new_flight} has no {fare_class} seats for {len(itinerary.passengers)}")
    proposed = itinerary.clone()
    leg = proposed.legs[leg_index]
    leg.flight, leg.depart, leg.fare_class = flight.flight, flight.depart, fare_class
    leg.seats.clear()
    proposed.history.append(f"changed leg {leg_index} to {flight.flight}")
    return ChangeProposal(itinerary, proposed, leg_index, change_cost(old, leg, len(itinerary.passengers)))


def accept(proposal, bookings):
    """Replace the booking in the store with the proposed one; the old one must still be the stored one."""
    current = bookings.get(proposal.original.pnr)
    if current is not proposal.original:
        raise ChangeError(f"{proposal.original.pnr} changed since the proposal was made")
    bookings[proposal.original.pnr] = proposal.proposed
    return proposal.proposed


def confirmation(proposal):
    """The text sent to the customer once a change is accepted."""
    old = proposal.original.legs[proposal.leg_index]
    new = proposal.proposed.legs[proposal.leg_index]
    lines = [f"Booking {proposal.proposed.pnr}: your flight has changed."]
    lines.append(f"  was: {old.flight} {old.route()} {old.depart.replace('T', ' ')}")
    lines.append(f"  now: {new.flight} {new.route()} {new.depart.replace('T', ' ')}")
    for name, seat in sorted(new.seats.items()):
        lines.append(f"  {name}: seat {seat}")
    lines.append(f"  charged: CHF {proposal.cost_cents // 100}.{proposal.cost_cents % 100:02d}")
    return "\n".join(lines)
