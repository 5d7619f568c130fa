import threading
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Constituent:
    name: str
    speed_deg_per_hour: float
    amplitude_m: float
    phase_deg: float


@dataclass
class Station:
    code: str
    name: str
    datum_offset_m: float
    constituents: list = field(default_factory=list)

    def constituent(self, name):
        for c in self.constituents:
            if c.name == name:
                return c
        raise KeyError(f"{self.code} has no constituent {name}")


SPEEDS = {"M2": 28.984104, "S2": 30.0, "N2": 28.43973, "K1": 15.041069, "O1": 13.943035}

_registry = {}
_context = threading.local()


def register(code, name, datum_offset_m, table):
    station = Station(code, name, datum_offset_m, [
        Constituent(n, SPEEDS[n], amp, phase) for n, (amp, phase) in sorted(table.items())
    ])
    _registry[code] = station
    return station


def get(code):
    try:
        return _registry[code]
    except KeyError:
        raise KeyError(f"unknown station {code}") from None


register("REF", "Reference buoy", 0.0, {"M2": (1.0, 0.0)})
register("BRS", "Bristol Harbour", 6.9, {"M2": (4.1, 170.0), "S2": (1.5, 215.0), "K1": (0.1, 120.0)})
register("HLF", "Halifax", 1.1, {"M2": (0.63, 350.0), "N2": (0.15, 330.0), "K1": (0.1, 100.0), "O1": (0.05, 75.0)})


def use_station(code):
    _context.station = get(code)


def current_station():
    return getattr(_context, "station", _registry["REF"])
