"""Rotation rules a plan must satisfy."""
from crops import crop


def family_rested(field, crop_name, year):
    """A family may return to a field only after its rest period: planted in year Y, again no earlier
    than Y + rest_years."""
    c = crop(crop_name)
    last = field.last_year_of_family(c.family, year)
    if last is None:
        return True
    return year - last >= c.rest_years


def follows_well(field, crop_name, year):
    """Wheat after a legume or a break crop, never wheat after wheat (take-all)."""
    prev = field.previous(year)
    if prev is None:
        return True
    if crop_name == "winter wheat" and crop(prev).family == "poaceae":
        return False
    return True


def violations(field, year, crop_name):
    out = []
    if not family_rested(field, crop_name, year):
        out.append(f"{field.name} {year}: {crop(crop_name).family} has not rested")
    if not follows_well(field, crop_name, year):
        out.append(f"{field.name} {year}: {crop_name} after {field.previous(year)}")
    return out
