"""Splitting a booking when some of its passengers change plans."""
from itinerary import Itinerary, Leg


def _next_locator(pnr, taken):
    n = 1
    while f"{pnr[:5]}{n}" in taken:
        n += 1
    return f"{pnr[:5]}{n}"


def split(itinerary, leaving, taken=()):
    """Move the `leaving` passengers to a new booking with the same flights; each keeps their seats and bags."""
    leaving = list(leaving)
    for name in leaving:
        itinerary.passenger(name)
    if len(leaving) == len(itinerary.passengers):
        raise ValueError("a split must leave someone on the original booking")
    new = Itinerary(_next_locator(itinerary.pnr, set(taken) | {itinerary.pnr}), [], [])
    for leg in itinerary.legs:
        new.legs.append(Leg(leg.flight, leg.origin, leg.dest, leg.depart, leg.fare_class, dict(leg.seats), dict(leg.bags)))
    new.passengers = [p for p in itinerary.passengers if p.name in leaving]
    itinerary.passengers = [p for p in itinerary.passengers if p.name not in leaving]
    for old_leg, new_leg in zip(itinerary.legs, new.legs):
        for name in list(old_leg.seats):
            if name in leaving:
                del old_leg.seats[name]
                old_leg.bags.pop(name, None)
            else:
                new_leg.seats.pop(name, None)
                new_leg.bags.pop(name, None)
    itinerary.history.append(f"split {', '.join(leaving)} to {new.pnr}")
    new.history.append(f"split from {itinerary.pnr}")
    return new
