"""Recursive merges of mappings.

`merge_into(target, source)` changes `target` in place: mappings are merged key by key, lists follow the
`lists` strategy ("replace" or "append"), and any other value from `source` replaces the one in `target`.
A value of `DELETE` in `source` removes the key from `target`. Values taken from `source` are inserted as
they are; callers that keep using `source` afterwards should pass a copy.
"""
import copy
from collections.abc import Mapping, MutableMapping

from .errors import MergeConflict


class _Delete:
    def __repr__(self):
        return "DELETE"

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


DELETE = _Delete()
LIST_STRATEGIES = ("replace", "append")


def merge_into(target, source, lists="replace", strict=False, _path=""):
    if lists not in LIST_STRATEGIES:
        raise ValueError(f"unknown list strategy {lists!r}; expected one of {LIST_STRATEGIES}")
    if not isinstance(target, MutableMapping):
        raise MergeConflict(_path, target, source)
    for key, value in source.items():
        path = f"{_path}.{key}" if _path else str(key)
        if value is DELETE:
            target.pop(key, None)
            continue
        if key not in target:
            target[key] = value
            continue
        current = target[key]
        if isinstance(current, MutableMapping) and isinstance(value, Mapping):
            merge_into(current, value, lists=lists, strict=strict, _path=path)
        elif isinstance(current, list) and isinstance(value, list):
            if lists == "append":
                current.extend(value)
            else:
                target[key] = value
        elif strict and isinstance(current, Mapping) != isinstance(value, Mapping):
            raise MergeConflict(path, current, value)
        else:
            target[key] = value
    return target


def merged(*layers, lists="replace", strict=False):
    """A new mapping: a deep copy of the first layer with the others merged into it in order."""
    if not layers:
        return {}
    out = copy.deepcopy(dict(layers[0]))
    for layer in layers[1:]:
        merge_into(out, copy.deepcopy(layer), lists=lists, strict=strict)
    return out
