"""Bounded, filtered views of runtime values for the model.

Every repr here is bounded in depth, string length and item count, and says what it left out ("… 12 more items")
instead of cutting silently. Locals leave out module metadata and imported names (modules, functions, classes)
unless asked for by name: the seed found those dumps were noise that crowded out the state that mattered.
"""
from __future__ import annotations

import types
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass
from typing import cast


@dataclass(frozen=True)
class ReprLimits:
    depth: int = 3  # nesting levels shown before a container becomes "<list of 40 items>"
    items: int = 8  # items per container
    string: int = 160  # characters of a string or of a foreign repr
    attrs: int = 8  # attributes shown for a plain object


DEFAULT = ReprLimits()

_HIDDEN_TYPES = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, type)


def is_noise(name: str, value: object) -> str | None:
    """Why a local is left out of examine_locals, or None to keep it."""
    if name.startswith("__") and name.endswith("__"):
        return "dunder"
    if name.startswith("@py_assert"):  # pytest's assertion-rewriting temporaries
        return "dunder"
    kind = type(value)  # not isinstance: that consults value.__class__, which the program may make raise
    if issubclass(kind, types.ModuleType):
        return "module"
    if issubclass(kind, _HIDDEN_TYPES):
        return "function/class"
    return None


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… {len(text) - limit} more chars"


def _plain_object(obj: object) -> bool:
    """True when obj uses object.__repr__ (the useless <Foo object at 0x…>) and has a __dict__ worth showing."""
    try:
        return type(obj).__repr__ is object.__repr__ and type(getattr(obj, "__dict__", None)) is dict
    except BaseException:  # noqa: BLE001 - a __getattribute__ that raises: fall back to repr()
        return False


def brepr(obj: object, limits: ReprLimits = DEFAULT, depth: int = 0, seen: frozenset[int] = frozenset()) -> str:
    """A bounded repr that never raises: a value whose ``__iter__``, ``items``, ``__class__``, ``__len__`` or
    ``__getattribute__`` raises (the program's bug, or a hostile object) shows as ``<repr failed: …>``."""
    try:
        return _brepr(obj, limits, depth, seen)
    except RecursionError:
        return "<repr failed: too deeply nested>"
    except BaseException as e:  # noqa: BLE001 - SystemExit from a __repr__ must not end the bridge either
        return f"<repr failed: {safe_str(e, 80)}>"


def safe_str(e: BaseException, limit: int = 300) -> str:
    """``Type: message`` of an exception, bounded, even when its ``__str__`` raises."""
    try:
        msg = str(e)
    except BaseException:  # noqa: BLE001
        msg = "<unprintable>"
    text = f"{type(e).__name__}: {msg}" if msg else type(e).__name__
    return _cut(text, limit)


def _brepr(obj: object, limits: ReprLimits, depth: int, seen: frozenset[int]) -> str:
    if id(obj) in seen:
        return "<cycle>"
    if issubclass(type(obj), str):
        return _cut(repr(obj), limits.string)
    if issubclass(type(obj), (bytes, bytearray)):
        return _cut(repr(obj), limits.string)
    if issubclass(type(obj), (int, float, complex, bool, type(None))):
        return _cut(repr(obj), limits.string)
    inner = seen | {id(obj)}
    # type(obj), not isinstance: a faked __class__ must not pick the branch. mypy narrows neither, hence the casts.
    if issubclass(type(obj), dict):
        obj = cast("dict[object, object]", obj)
        if depth >= limits.depth:
            return f"<dict of {len(obj)} items>"
        parts = []
        for i, (k, v) in enumerate(obj.items()):
            if i == limits.items:
                parts.append(f"… {len(obj) - limits.items} more items")
                break
            parts.append(f"{brepr(k, limits, depth + 1, inner)}: {brepr(v, limits, depth + 1, inner)}")
        body = "{" + ", ".join(parts) + "}"
        return body if type(obj) is dict else f"{type(obj).__name__}({body})"
    if issubclass(type(obj), (list, tuple, set, frozenset, deque)):
        obj = cast("Collection[object]", obj)
        name = type(obj).__name__
        if depth >= limits.depth:
            return f"<{name} of {len(obj)} items>"
        parts = []
        for i, v in enumerate(obj):
            if i == limits.items:
                parts.append(f"… {len(obj) - limits.items} more items")
                break
            parts.append(brepr(v, limits, depth + 1, inner))
        if issubclass(type(obj), list):
            return "[" + ", ".join(parts) + "]"
        if issubclass(type(obj), tuple) and type(obj) is tuple:
            return "(" + ", ".join(parts) + ("," if len(obj) == 1 else "") + ")"
        if type(obj) is set:
            return "{" + ", ".join(parts) + "}" if obj else "set()"
        return f"{name}([" + ", ".join(parts) + "])"
    if _plain_object(obj):
        attrs = vars(obj)
        if depth >= limits.depth:
            return f"<{type(obj).__name__} object with {len(attrs)} attributes>"
        parts = []
        for i, (k, v) in enumerate(attrs.items()):
            if i == limits.attrs:
                parts.append(f"… {len(attrs) - limits.attrs} more attributes")
                break
            parts.append(f"{k}={brepr(v, limits, depth + 1, inner)}")
        return f"{type(obj).__name__}(" + ", ".join(parts) + ")"
    try:
        text = repr(obj)
    except BaseException as e:  # noqa: BLE001 - a broken __repr__ is the program's bug, not ours
        text = f"<repr failed: {safe_str(e, 80)}>"
    if not isinstance(text, str):
        return "<repr failed: __repr__ returned a non-string>"
    return _cut(text, limits.string)


def format_locals(namespace: dict, limits: ReprLimits = DEFAULT, max_names: int = 40) -> str:
    """One `name = value` line per kept local, then a note of what was hidden and why."""
    lines: list[str] = []
    hidden: dict[str, int] = {}
    kept = 0
    for name, value in namespace.items():
        name = name if isinstance(name, str) else brepr(name)
        try:
            why = is_noise(name, value)
        except BaseException:  # noqa: BLE001 - isinstance consults a __class__ that may raise: show the value
            why = None
        if why:
            hidden[why] = hidden.get(why, 0) + 1
            continue
        kept += 1
        if kept > max_names:
            continue
        lines.append(f"{name} = {brepr(value, limits)}")
    if kept > max_names:
        lines.append(f"… {kept - max_names} more locals")
    if not lines:
        lines.append("(no locals)")
    if hidden:
        summary = ", ".join(f"{n} {k}" for k, n in sorted(hidden.items()))
        lines.append(f"(hidden: {summary}; print_variable shows any of them by name)")
    return "\n".join(lines)
