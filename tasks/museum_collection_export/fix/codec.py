"""JSON encoding of collection records, keeping the Python types JSON lacks.

JSON has no tuples, sets, dates or Decimals and only string keys, so values are
tagged before encoding: {"$t": "tuple", "v": [...]}, and dicts whose keys are not
all strings become {"$t": "map", "v": [[key, value], ...]}.
"""
import json
from datetime import date, datetime
from decimal import Decimal

TAG = "$t"


def _prepare(value):
    """Tag what json.dumps would otherwise flatten silently: tuples, and dicts with non-string keys."""
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: _prepare(v) for k, v in value.items()}
        return {TAG: "map", "v": [[_prepare(k), _prepare(v)] for k, v in value.items()]}
    if isinstance(value, list):
        return [_prepare(v) for v in value]
    if isinstance(value, tuple):
        return {TAG: "tuple", "v": [_prepare(v) for v in value]}
    return value


def _tag_scalar(value):
    """json.dumps calls this for the types it cannot encode at all."""
    if isinstance(value, (set, frozenset)):
        return {TAG: "set", "v": sorted(_prepare(v) for v in value)}
    if isinstance(value, Decimal):
        return {TAG: "decimal", "v": str(value)}
    if isinstance(value, datetime):
        return {TAG: "datetime", "v": value.isoformat()}
    if isinstance(value, date):
        return {TAG: "date", "v": value.isoformat()}
    raise TypeError(f"cannot encode {type(value).__name__}")


def _restore(obj):
    tag = obj.get(TAG)
    if tag is None:
        return obj
    v = obj["v"]
    if tag == "tuple":
        return tuple(v)
    if tag == "set":
        return set(v)
    if tag == "map":
        return {(tuple(k) if isinstance(k, list) else k): val for k, val in v}
    if tag == "decimal":
        return Decimal(v)
    if tag == "datetime":
        return datetime.fromisoformat(v)
    if tag == "date":
        return date.fromisoformat(v)
    raise ValueError(f"unknown tag {tag!r}")


def dumps(value, **kwargs):
    return json.dumps(_prepare(value), sort_keys=True, default=_tag_scalar, **kwargs)


def loads(text):
    return json.loads(text, object_hook=_restore)
