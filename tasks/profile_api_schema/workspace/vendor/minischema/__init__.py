"""minischema 0.6.2: declarative schemas that load (validate + convert) and dump plain data."""
from .errors import ValidationError
from .fields import Boolean, DateTime, Field, Integer, List, Nested, String
from .schema import Schema

__all__ = ["Boolean", "DateTime", "Field", "Integer", "List", "Nested", "Schema", "String", "ValidationError"]
__version__ = "0.6.2"
