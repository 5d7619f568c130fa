"""Seat assignment on a changed leg: keep a party together in one row where the cabin allows."""
import re

_SEAT = re.compile(r"^(\d{1,2})([A-K])$")
ROW_LETTERS = "ABCDEF"


class SeatError(ValueError):
    pass


def parse_seat(seat):
    m = _SEAT.match(seat)
    if not m or m.group(2) not in ROW_LETTERS:
        raise SeatError(f"not a seat: {seat!r}")
    return int(m.group(1)), m.group(2)


def free_seats(taken, rows):
    taken = set(taken)
    return [f"{r}{c}" for r in rows for c in ROW_LETTERS if f"{r}{c}" not in taken]


def assign_party(leg, names, taken, rows=range(10, 31)):
    """Give every passenger in `names` a seat on `leg`, side by side in the first row with room for all."""
    names = [n for n in names if n not in leg.seats]
    if not names:
        return {}
    free = free_seats(taken, rows)
    by_row = {}
    for seat in free:
        by_row.setdefault(parse_seat(seat)[0], []).append(seat)
    for row in sorted(by_row):
        if len(by_row[row]) >= len(names):
            chosen = dict(zip(names, by_row[row]))
            break
    else:
        if len(free) < len(names):
            raise SeatError(f"{leg.flight}: {len(free)} seats left for {len(names)} passengers")
        chosen = dict(zip(names, free))
    leg.seats.update(chosen)
    return chosen
