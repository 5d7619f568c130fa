"""Merging layers. Mappings merge key by key; any other value from a later layer replaces the earlier one."""
import copy
from collections.abc import Mapping


def deep_merge(into, *layers):
    """Merge `layers` into the mapping `into`, in order, and return `into` (updated in place, like dict.update).

    Values taken from a layer are deep-copied, so later edits of the result never reach the layers.
    """
    for layer in layers:
        for key, value in layer.items():
            current = into.get(key)
            if isinstance(current, dict) and isinstance(value, Mapping):
                deep_merge(current, value)
            else:
                into[key] = copy.deepcopy(value)
    return into


def merged(*layers):
    """A new mapping holding all `layers` merged in order; no layer is modified."""
    return deep_merge({}, *layers)
