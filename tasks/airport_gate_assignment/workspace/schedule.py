"""The day's arrivals as the airline schedule file gives them, and figures over the finished board."""
import re

from flights import Flight, hhmm

LINE = re.compile(r"^(?P<number>[A-Z0-9]{2}\d{1,4})\s+(?P<aircraft>[A-Z0-9]{4})\s+(?P<on>\d\d:\d\d)-(?P<off>\d\d:\d\d)(?P<intl>\s+INT)?$")


class ScheduleError(ValueError):
    pass


def parse_schedule(text):
    flights, seen = [], set()
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        if not m:
            raise ScheduleError(f"line {lineno}: cannot read {line!r}")
        if m["number"] in seen:
            raise ScheduleError(f"line {lineno}: {m['number']} listed twice")
        seen.add(m["number"])
        flights.append(Flight(m["number"], m["aircraft"], hhmm(m["on"]), hhmm(m["off"]), bool(m["intl"])))
    return flights


def split_between_desks(flights, desks):
    """Deal flights to desks in on-block order, round robin."""
    lists = [[] for _ in range(desks)]
    for i, f in enumerate(sorted(flights, key=lambda f: (f.on_block, f.number))):
        lists[i % desks].append(f)
    return lists


def utilisation(board, start, end):
    """Share of [start, end) minutes each gate is occupied, in whole percent."""
    span = end - start
    out = {}
    for name in sorted(board.terminal.gates):
        busy = 0
        for flight, gate in board.assignments.items():
            if gate == name:
                busy += max(0, min(flight.off_block, end) - max(flight.on_block, start))
        out[name] = round(100 * busy / span)
    return out
