"""Crops by botanical family, with how long the family must rest between plantings on one field."""
from dataclasses import dataclass

REST_YEARS = {"solanaceae": 4, "brassicaceae": 3, "fabaceae": 2, "poaceae": 1, "apiaceae": 3, "amaranthaceae": 2}


@dataclass(frozen=True)
class Crop:
    name: str
    family: str
    margin_per_ha: int
    nitrogen_kg_ha: int

    def __post_init__(self):
        if self.family not in REST_YEARS:
            raise ValueError(f"{self.name}: unknown family {self.family!r}")

    @property
    def rest_years(self):
        return REST_YEARS[self.family]

    @property
    def fixes_nitrogen(self):
        return self.nitrogen_kg_ha < 0


CROPS = {
    c.name: c
    for c in (
        Crop("potato", "solanaceae", 2400, 180),
        Crop("cabbage", "brassicaceae", 2100, 200),
        Crop("oilseed rape", "brassicaceae", 900, 190),
        Crop("field bean", "fabaceae", 700, -80),
        Crop("clover ley", "fabaceae", 300, -150),
        Crop("winter wheat", "poaceae", 1100, 200),
        Crop("spring barley", "poaceae", 800, 120),
        Crop("carrot", "apiaceae", 2600, 90),
        Crop("sugar beet", "amaranthaceae", 1500, 120),
    )
}


def crop(name):
    try:
        return CROPS[name]
    except KeyError:
        raise KeyError(f"unknown crop {name!r}") from None
