"""tagcodec: JSON with typed values. Register a class once, then dumps/loads round-trip its instances.

    register(Point)                       # tag "point", fields from the dataclass
    loads(dumps([Point(1, 2)]))           # [Point(x=1, y=2)]
"""
from .codec import dumps, loads
from .errors import CodecError, UnknownTag
from .registry import REGISTRY, Registry, register

__all__ = ["CodecError", "REGISTRY", "Registry", "UnknownTag", "dumps", "loads", "register"]
__version__ = "0.6.0"
