"""Typed fields: convert between model attributes and JSON-safe primitives."""
from datetime import date
from decimal import Decimal, InvalidOperation


class Field:
    def __init__(self, required: bool = True):
        self.required = required
        self.name = ""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def to_primitive(self, value):
        return value

    def from_primitive(self, raw):
        return raw


class StringField(Field):
    def __init__(self, max_length: int, required: bool = True):
        super().__init__(required)
        self.max_length = max_length

    def from_primitive(self, raw):
        if not isinstance(raw, str):
            raise ValueError("expected a string")
        if len(raw) > self.max_length:
            raise ValueError(f"longer than {self.max_length} characters")
        return raw


class IntegerField(Field):
    def __init__(self, min_value: int | None = None, required: bool = True):
        super().__init__(required)
        self.min_value = min_value

    def from_primitive(self, raw):
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError("expected an integer")
        if self.min_value is not None and raw < self.min_value:
            raise ValueError(f"must be at least {self.min_value}")
        return raw


class DecimalField(Field):
    """Money and other exact amounts travel as strings so JSON floats never touch them."""

    def __init__(self, places: int, required: bool = True):
        super().__init__(required)
        self.quantum = Decimal(1).scaleb(-places)

    def to_primitive(self, value: Decimal) -> str:
        return str(value.quantize(self.quantum))

    def from_primitive(self, raw) -> Decimal:
        try:
            return Decimal(str(raw)).quantize(self.quantum)
        except InvalidOperation:
            raise ValueError(f"not a decimal: {raw!r}") from None


class DateField(Field):
    def to_primitive(self, value: date) -> str:
        return value.isoformat()

    def from_primitive(self, raw) -> date:
        try:
            return date.fromisoformat(raw)
        except (TypeError, ValueError):
            raise ValueError(f"not an ISO date: {raw!r}") from None


class ListField(Field):
    def __init__(self, item: Field, required: bool = True):
        super().__init__(required)
        self.item = item

    def to_primitive(self, value):
        return [self.item.to_primitive(v) for v in value]

    def from_primitive(self, raw):
        if not isinstance(raw, list):
            raise ValueError("expected a list")
        return [self.item.from_primitive(v) for v in raw]
