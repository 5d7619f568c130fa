from fractions import Fraction

GRAMS_PER = {"g": Fraction(1), "kg": Fraction(1000), "tbsp": Fraction(15), "tsp": Fraction(5), "cup": Fraction(240)}
DENSITY = {"flour": Fraction(53, 100), "sugar": Fraction(85, 100), "milk": Fraction(103, 100), "butter": Fraction(95, 100)}


class QuantityError(ValueError):
    pass


def parse_amount(text):
    """'1 1/2' -> Fraction(3, 2); '0.25' -> Fraction(1, 4)"""
    total = Fraction(0)
    parts = text.split()
    if not parts:
        raise QuantityError("empty amount")
    for part in parts:
        try:
            total += Fraction(part)
        except (ValueError, ZeroDivisionError):
            raise QuantityError(f"bad amount {text!r}") from None
    if total <= 0:
        raise QuantityError(f"amount must be positive: {text!r}")
    return total


def format_amount(value):
    value = Fraction(value)
    whole, rest = divmod(value.numerator, value.denominator)
    if rest == 0:
        return str(whole)
    frac = f"{rest}/{value.denominator}"
    return f"{whole} {frac}" if whole else frac


def to_grams(amount, unit, ingredient):
    if unit not in GRAMS_PER:
        raise QuantityError(f"unknown unit {unit!r}")
    grams = amount * GRAMS_PER[unit]
    if unit in ("cup", "tbsp", "tsp"):
        grams *= DENSITY.get(ingredient, Fraction(1))
    return grams


def grams_label(grams):
    grams = Fraction(grams)
    if grams >= 1000:
        return f"{float(grams / 1000):.2f} kg"
    return f"{float(grams):.0f} g"
