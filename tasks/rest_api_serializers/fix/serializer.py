"""Declarative serializers: subclasses list their fields as class attributes, and inherit their parents' fields."""
from fields import Field


class Serializer:
    _fields: dict[str, Field] = {}

    def __init__(self):
        self.errors: dict[str, list[str]] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fields = dict(cls._fields)  # a copy of the parent's fields, so siblings never see each other's
        for name, value in vars(cls).items():
            if isinstance(value, Field):
                fields[name] = value
        cls._fields = fields

    @classmethod
    def field_names(cls) -> list[str]:
        return list(cls._fields)

    def dump(self, obj) -> dict:
        return {name: field.to_primitive(getattr(obj, name)) for name, field in self._fields.items()}

    def load(self, payload: dict) -> dict | None:
        """Validated attributes, or None with `errors` filled in."""
        clean = {}
        for name, field in self._fields.items():
            if name not in payload:
                if field.required:
                    self._error(name, "this field is required")
                continue
            try:
                clean[name] = field.from_primitive(payload[name])
            except ValueError as exc:
                self._error(name, str(exc))
        return None if self.errors else clean

    def _error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)
