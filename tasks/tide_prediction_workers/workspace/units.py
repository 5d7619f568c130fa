FEET_PER_METRE = 3.28084


class UnitError(ValueError):
    pass


def convert(height_m, unit):
    if unit == "m":
        return height_m
    if unit == "ft":
        return height_m * FEET_PER_METRE
    raise UnitError(f"unknown unit {unit!r}")


def fmt(height_m, unit="m", width=5):
    value = convert(height_m, unit)
    return f"{value:{width}.2f}"


def above_chart_datum(height_m, datum_offset_m):
    """Heights are predicted above mean sea level; charts print them above the lowest tide."""
    return round(height_m - datum_offset_m, 3)


def clearance(height_m, bridge_m, air_draft_m):
    gap = bridge_m - height_m - air_draft_m
    return round(gap, 2)


def safe_windows(samples, bridge_m, air_draft_m, margin_m=0.5):
    windows = []
    current = None
    for when, h in samples:
        ok = clearance(h, bridge_m, air_draft_m) >= margin_m
        if ok and current is None:
            current = [when, when]
        elif ok:
            current[1] = when
        elif current is not None:
            windows.append(tuple(current))
            current = None
    if current is not None:
        windows.append(tuple(current))
    return windows
