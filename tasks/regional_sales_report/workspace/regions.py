"""Sales regions: who leads each one and who gets the morning email."""

from dataclasses import dataclass

HEAD_OF_SALES = "sales-leads@example.com"


@dataclass(frozen=True)
class Region:
    code: str
    name: str
    lead: str


REGIONS = {
    "EAST": Region("EAST", "East Coast", "dana.east@example.com"),
    "WEST": Region("WEST", "West Coast", "li.west@example.com"),
    "NORTH": Region("NORTH", "Northern Plains", "sam.north@example.com"),
    "SOUTH": Region("SOUTH", "Gulf & South", "ana.south@example.com"),
}


def region(code):
    try:
        return REGIONS[code.strip().upper()]
    except KeyError:
        raise KeyError(f"unknown sales region {code!r}") from None


def recipients(codes):
    """The leads of the regions that sold something, then the head of sales; each address once."""
    out = []
    for code in sorted(set(codes)):
        lead = region(code).lead
        if lead not in out:
            out.append(lead)
    out.append(HEAD_OF_SALES)
    return out
