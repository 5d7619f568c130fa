"""Typed fields."""
from dataclasses import dataclass


class FieldError(ValueError):
    pass


KINDS = ("money", "text", "flag", "count")


@dataclass(frozen=True)
class Field:
    name: str
    kind: str
    label: str = ""
    required: bool = False

    def __post_init__(self):
        if self.kind not in KINDS:
            raise FieldError(f"field {self.name}: unknown kind {self.kind}")

    def check(self, value):
        if value is None:
            if self.required:
                raise FieldError(f"{self.name} is required")
            return
        if self.kind == "money" and (not isinstance(value, int) or value < 0):
            raise FieldError(f"{self.name}: money is a non-negative whole number of pence")
        if self.kind == "count" and (not isinstance(value, int) or value < 0):
            raise FieldError(f"{self.name}: counts are non-negative integers")
        if self.kind == "flag" and not isinstance(value, bool):
            raise FieldError(f"{self.name}: flags are True or False")
        if self.kind == "text" and not isinstance(value, str):
            raise FieldError(f"{self.name}: text expected")

    def display(self, value):
        if value is None:
            return "-"
        if self.kind == "money":
            return f"{value // 100:,}.{value % 100:02d}"
        if self.kind == "flag":
            return "X" if value else ""
        return str(value)
