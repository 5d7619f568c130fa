"""Copying scenes for "duplicate" and "save as template".

Scenes are graphs, not trees: children point back at their parents and one payload
object may sit in several nodes. The copier keeps a memo from the id of each object
already copied to its copy, so shared objects stay shared (within the copy) and
back-references terminate.
"""
from dataclasses import fields, is_dataclass

from assets import Material, Palette
from scene import Node, Scene

_ATOMIC = (str, int, float, bool, bytes, type(None))


def clone(value, memo=None):
    if memo is None:
        memo = {}
    return _clone(value, memo)


def _clone(value, memo):
    if isinstance(value, _ATOMIC):
        return value
    key = id(value)
    if key in memo:
        return memo[key]
    if isinstance(value, list):
        copy = []
        memo[key] = copy
        copy.extend(_clone(item, memo) for item in value)
        return copy
    if isinstance(value, tuple):
        copy = tuple(_clone(item, memo) for item in value)
        memo[key] = copy
        return copy
    if isinstance(value, dict):
        copy = {}
        memo[key] = copy
        for k, v in value.items():
            copy[k] = _clone(v, memo)
        return copy
    if isinstance(value, Scene):
        return _clone_scene(value, memo)
    if is_dataclass(value) and isinstance(value, (Node, Material, Palette)):
        return _clone_dataclass(value, memo)
    raise TypeError(f"cannot copy {type(value).__name__}")


def _clone_dataclass(value, memo):
    copy = object.__new__(type(value))
    memo[id(value)] = copy
    for f in fields(value):
        setattr(copy, f.name, _clone(getattr(value, f.name), memo))
    return copy


def _clone_scene(scene, memo):
    copy = Scene.__new__(Scene)
    memo[id(scene)] = copy
    copy.title = scene.title
    copy.settings = _clone(scene.settings, memo)
    copy.root = _clone(scene.root, memo)
    copy.revision = 0
    return copy


def duplicate(scene, title=None):
    copy = clone(scene)
    copy.title = title or f"{scene.title} (copy)"
    return copy
