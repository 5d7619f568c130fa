"""Catalog of text plugins. Plugin modules register themselves at import time with @register."""

AVAILABLE: dict[str, "object"] = {}


class UnknownPlugin(LookupError):
    pass


def register(cls):
    if cls.name in AVAILABLE:
        raise ValueError(f"plugin {cls.name!r} is registered twice")
    AVAILABLE[cls.name] = cls()
    return cls


def lookup(name: str):
    try:
        return AVAILABLE[name]
    except KeyError:
        raise UnknownPlugin(f"no plugin named {name!r}; available: {sorted(AVAILABLE)}") from None
