"""snapkit: snapshot object graphs to JSON and back.

Register each class with a tag and a pair of functions that turn an instance
into plain data and back. Classes registered with by_ref=True are written once
and referred to by id afterwards, so shared objects stay shared after loading.
"""
from .registry import Registry, SnapshotError
from .codec import dumps, loads

__all__ = ["Registry", "SnapshotError", "dumps", "loads"]
__version__ = "0.6.0"
