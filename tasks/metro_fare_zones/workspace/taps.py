"""Card taps at the gates, paired into journeys. A tap-in without a tap-out is charged the maximum."""
from dataclasses import dataclass

from fares import PEAK, fare


@dataclass(frozen=True)
class Tap:
    card: str
    station: str
    minute: int
    kind: str

    def __post_init__(self):
        if self.kind not in ("in", "out"):
            raise ValueError(f"tap kind must be in/out, not {self.kind}")


@dataclass(frozen=True)
class Journey:
    card: str
    origin: str
    destination: str
    start: int
    pence: int
    incomplete: bool = False


MAX_FARE = PEAK[6]


def parse_taps(lines):
    taps = []
    for line in lines:
        card, code, clock, kind = line.split()
        h, m = clock.split(":")
        taps.append(Tap(card, code, int(h) * 60 + int(m), kind))
    return taps


def journeys(taps, weekday=True):
    out, open_in = [], {}
    for tap in sorted(taps, key=lambda t: (t.card, t.minute)):
        if tap.kind == "in":
            if tap.card in open_in:
                prev = open_in.pop(tap.card)
                out.append(Journey(prev.card, prev.station, "?", prev.minute, MAX_FARE, True))
            open_in[tap.card] = tap
        else:
            start = open_in.pop(tap.card, None)
            if start is None:
                continue
            out.append(Journey(tap.card, start.station, tap.station, start.minute,
                               fare(start.station, tap.station, start.minute, weekday)))
    for tap in open_in.values():
        out.append(Journey(tap.card, tap.station, "?", tap.minute, MAX_FARE, True))
    return sorted(out, key=lambda j: (j.card, j.start))
