"""jsonkit 1.8.0: JSON with tagged values for types the standard encoder does not know."""
from .codec import Codec, DecodeError, EncodeError
from .builtin import default_codec

__all__ = ["Codec", "DecodeError", "EncodeError", "default_codec"]
__version__ = "1.8.0"
