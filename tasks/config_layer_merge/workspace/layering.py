"""Combining configuration layers: later layers win, nested sections merge key by key."""


def merge(base, override):
    """`base` with `override` laid over it."""
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merge(base[key], value)
        else:
            base[key] = value
    return base


def flatten(tree, prefix=""):
    """{"a": {"b": 1}} -> {"a.b": 1}"""
    flat = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(flatten(value, f"{path}."))
        else:
            flat[path] = value
    return flat


def diff(before, after):
    """Dotted keys whose values differ between two trees, with (before, after) values."""
    a, b = flatten(before), flatten(after)
    changed = {}
    for key in sorted(set(a) | set(b)):
        if a.get(key, MISSING) != b.get(key, MISSING):
            changed[key] = (a.get(key, MISSING), b.get(key, MISSING))
    return changed


class _Missing:
    def __repr__(self):
        return "<missing>"


MISSING = _Missing()
