"""tagcodec 0.6.1: JSON documents with application-defined extension types."""
from .codec import dumps, loads
from .errors import DecodeError, EncodeError
from .registry import MAX_CODE, ExtRegistry, default_registry

__all__ = ["DecodeError", "EncodeError", "ExtRegistry", "MAX_CODE", "default_registry", "dumps", "loads"]
__version__ = "0.6.1"
