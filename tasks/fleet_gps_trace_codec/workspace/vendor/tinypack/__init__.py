"""tinypack: a compact, self-describing binary encoding for None, bools, ints, floats, str, bytes, lists
and string-keyed maps.

    blob = pack({"id": 7, "tags": ["a", "b"]})
    unpack(blob) == {"id": 7, "tags": ["a", "b"]}
"""
from .codec import PackError, pack, unpack

__all__ = ["PackError", "pack", "unpack"]
__version__ = "0.3.1"
