"""schemalite 2.0.3: declarative schemas that dump objects to JSON-ready dicts and load them back."""
from . import fields
from .errors import ValidationError
from .schema import Schema, post_load

__all__ = ["Schema", "ValidationError", "fields", "post_load"]
__version__ = "2.0.3"
