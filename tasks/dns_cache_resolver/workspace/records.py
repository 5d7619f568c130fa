import ipaddress
from dataclasses import dataclass

TYPES = ("A", "AAAA", "CNAME", "TXT")


class RecordError(ValueError):
    pass


def normalize(name):
    name = name.strip().lower()
    if not name:
        raise RecordError("empty name")
    if not name.endswith("."):
        name += "."
    for label in name[:-1].split("."):
        if not label or len(label) > 63:
            raise RecordError(f"bad label in {name!r}")
    return name


@dataclass(frozen=True)
class Record:
    name: str
    rtype: str
    value: str
    ttl: int

    def __post_init__(self):
        if self.rtype not in TYPES:
            raise RecordError(f"unsupported type {self.rtype}")
        if self.ttl < 0:
            raise RecordError("negative ttl")
        if self.rtype == "A":
            ipaddress.IPv4Address(self.value)
        elif self.rtype == "AAAA":
            ipaddress.IPv6Address(self.value)


def parse_zone_line(line):
    """'www.example.com. 300 A 192.0.2.10'"""
    parts = line.split(None, 3)
    if len(parts) != 4:
        raise RecordError(f"bad zone line {line!r}")
    name, ttl, rtype, value = parts
    try:
        ttl = int(ttl)
    except ValueError:
        raise RecordError(f"bad ttl in {line!r}") from None
    return Record(normalize(name), rtype.upper(), value.strip(), ttl)
