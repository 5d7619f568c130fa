"""Cache keys built from a call's arguments, bound to the function's signature.

Binding first means f(1, b=2), f(1, 2) and f(a=1, b=2) share one entry, and defaults are part of the key.
"""
import inspect


class UnhashableArgument(TypeError):
    """An argument that can be neither hashed nor converted to a hashable stand-in."""


def hashable(value):
    """A hashable stand-in for built-in containers; any other object keys by its own __hash__ and __eq__."""
    if isinstance(value, dict):
        return ("__dict__", tuple(sorted((repr(k), hashable(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("__list__", tuple(hashable(v) for v in value))
    if isinstance(value, tuple):
        return tuple(hashable(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return ("__set__", frozenset(hashable(v) for v in value))
    try:
        hash(value)
    except TypeError:
        raise UnhashableArgument(f"cannot build a cache key from a {type(value).__name__}") from None
    return value


def bind_key(signature, args, kwargs, ignore=()):
    """The key of one call: (name, value) pairs in parameter order, without the names in `ignore`."""
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    parts = []
    for name, value in bound.arguments.items():
        if name in ignore:
            continue
        kind = signature.parameters[name].kind
        if kind is inspect.Parameter.VAR_KEYWORD:
            value = dict(value)
        parts.append((name, hashable(value)))
    return tuple(parts)
