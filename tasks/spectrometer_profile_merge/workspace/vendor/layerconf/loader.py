"""Command-line style overrides: `detector.exposure_ms=250 grating.blaze_nm=750 calibration.lamp=argon`."""
import json


class OverrideError(ValueError):
    pass


def _value(text):
    """JSON when it parses (numbers, true/false, lists), the bare text otherwise."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_overrides(items):
    """Nested mapping from `dotted.key=value` strings."""
    result = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key or key.startswith(".") or key.endswith("."):
            raise OverrideError(f"expected dotted.key=value, got {item!r}")
        node = result
        *parents, leaf = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise OverrideError(f"{key}: {part} is already a value")
        node[leaf] = _value(raw)
    return result
