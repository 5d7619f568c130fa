"""Bounded, filtered views of runtime values for the model.

Every repr here is bounded in depth, string length and item count, and says what it left out ("… 12 more items")
instead of cutting silently. Locals leave out module metadata and imported names (modules, functions, classes)
unless asked for by name: the seed found those dumps were noise that crowded out the state that mattered.
"""
from __future__ import annotations

import types
from collections import deque
from dataclasses import dataclass


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
    if isinstance(value, types.ModuleType):
        return "module"
    if isinstance(value, _HIDDEN_TYPES):
        return "function/class"
    return None


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… {len(text) - limit} more chars"


def _plain_object(obj: object) -> bool:
    """True when obj uses object.__repr__ (the useless <Foo object at 0x…>) and has a __dict__ worth showing."""
    return type(obj).__repr__ is object.__repr__ and isinstance(getattr(obj, "__dict__", None), dict)


def brepr(obj: object, limits: ReprLimits = DEFAULT, depth: int = 0, seen: frozenset[int] = frozenset()) -> str:
    if id(obj) in seen:
        return "<cycle>"
    if isinstance(obj, str):
        return _cut(repr(obj), limits.string)
    if isinstance(obj, (bytes, bytearray)):
        return _cut(repr(obj), limits.string)
    if isinstance(obj, (int, float, complex, bool, type(None))):
        return _cut(repr(obj), limits.string)
    inner = seen | {id(obj)}
    if isinstance(obj, dict):
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
    if isinstance(obj, (list, tuple, set, frozenset, deque)):
        name = type(obj).__name__
        if depth >= limits.depth:
            return f"<{name} of {len(obj)} items>"
        parts = []
        for i, v in enumerate(obj):
            if i == limits.items:
                parts.append(f"… {len(obj) - limits.items} more items")
                break
            parts.append(brepr(v, limits, depth + 1, inner))
        if isinstance(obj, list):
            return "[" + ", ".join(parts) + "]"
        if isinstance(obj, tuple) and type(obj) is tuple:
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
    except Exception as e:  # a broken __repr__ is the program's bug, not ours
        text = f"<repr failed: {type(e).__name__}: {e}>"
    return _cut(text, limits.string)


def format_locals(namespace: dict, limits: ReprLimits = DEFAULT, max_names: int = 40) -> str:
    """One `name = value` line per kept local, then a note of what was hidden and why."""
    lines: list[str] = []
    hidden: dict[str, int] = {}
    kept = 0
    for name, value in namespace.items():
        why = is_noise(name, value)
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
