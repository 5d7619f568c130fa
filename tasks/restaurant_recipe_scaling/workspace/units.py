"""Kitchen units: everything converts to grams or millilitres before arithmetic."""

MASS = {"g": 1.0, "kg": 1000.0, "oz": 28.35, "lb": 453.6}
VOLUME = {"ml": 1.0, "l": 1000.0, "tsp": 5.0, "tbsp": 15.0, "cup": 240.0}
COUNT = {"each": 1.0}


class UnitError(ValueError):
    pass


def family(unit):
    for fam in (MASS, VOLUME, COUNT):
        if unit in fam:
            return fam
    raise UnitError(f"unknown unit {unit!r}")


def base_unit(unit):
    fam = family(unit)
    return "g" if fam is MASS else "ml" if fam is VOLUME else "each"


def convert(qty, from_unit, to_unit):
    src, dst = family(from_unit), family(to_unit)
    if src is not dst:
        raise UnitError(f"cannot convert {from_unit} to {to_unit}")
    return qty * src[from_unit] / dst[to_unit]


def pretty(qty, unit):
    """Round for the printed sheet: large masses and volumes move up to kg / l."""
    if unit == "g" and qty >= 1000:
        return f"{qty / 1000:.2f} kg"
    if unit == "ml" and qty >= 1000:
        return f"{qty / 1000:.2f} l"
    if unit == "each":
        return f"{qty:g}"
    return f"{qty:.0f} {unit}" if qty >= 10 else f"{qty:.1f} {unit}"
