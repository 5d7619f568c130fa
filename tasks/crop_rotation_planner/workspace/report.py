"""Printed rotation tables and the family mix the farm assurance scheme asks about."""
from collections import defaultdict

from crops import crop

COLUMN = 15


def rotation_table(fields, first_year, last_year):
    years = list(range(first_year, last_year + 1))
    width = max(len("field"), *(len(f.name) for f in fields)) + 3
    lines = ["field".ljust(width) + "".join(str(y).ljust(COLUMN) for y in years).rstrip()]
    for f in fields:
        cells = "".join(f.history.get(y, "-").ljust(COLUMN) for y in years).rstrip()
        lines.append(f.name.ljust(width) + cells)
    return lines


def family_shares(fields, year):
    """Percent of the farm's planted area in each family in `year`, one decimal."""
    area = defaultdict(float)
    for f in fields:
        name = f.history.get(year)
        if name is not None:
            area[crop(name).family] += f.hectares
    total = sum(area.values())
    if not total:
        return {}
    return {family: round(100 * ha / total, 1) for family, ha in sorted(area.items())}


def legume_years(field):
    """Years the field carried a nitrogen-fixing crop."""
    return sorted(y for y, name in field.history.items() if crop(name).fixes_nitrogen)
