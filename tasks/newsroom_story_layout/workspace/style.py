"""House style for the print and web editions."""
from dataclasses import dataclass, fields, replace


@dataclass
class HouseStyle:
    headline_case: str = "sentence"
    max_headline: int = 70
    byline_prefix: str = "By"
    dateline: bool = True
    column_width: int = 38
    drop_cap: bool = False
    currency: str = "£"

    def updated(self, **overrides):
        known = {f.name for f in fields(self)}
        unknown = set(overrides) - known
        if unknown:
            raise KeyError(f"unknown style settings: {sorted(unknown)}")
        return replace(self, **overrides)

    def apply(self, overrides):
        """Set the given settings on this style object."""
        known = {f.name for f in fields(self)}
        for key, value in overrides.items():
            if key not in known:
                raise KeyError(f"unknown style setting: {key}")
            setattr(self, key, value)


HOUSE = HouseStyle()

DESK_OVERRIDES = {
    "sport": {"headline_case": "upper", "max_headline": 50},
    "business": {"column_width": 44},
    "features": {"drop_cap": True, "dateline": False},
}
