"""Filters usable as {{ value|name }} or {{ value|name:arg }}."""


def _default(value, arg=""):
    return value if value not in (None, "") else arg


def _money(value, arg="EUR"):
    return f"{value / 100:.2f} {arg}"


def _plural(value, arg="s"):
    return "" if value == 1 else arg


FILTERS = {
    "upper": lambda v, arg=None: str(v).upper(),
    "lower": lambda v, arg=None: str(v).lower(),
    "title": lambda v, arg=None: str(v).title(),
    "default": _default,
    "money": _money,
    "plural": _plural,
    "length": lambda v, arg=None: len(v),
    "join": lambda v, arg=", ": arg.join(str(x) for x in v),
}
