import datetime as _dt

from .errors import FieldError, ValidationError

_MISSING = object()


class Field:
    """Base field. `data_key` is the name in the outside data; `load_default` fills a missing value."""

    def __init__(self, required=False, load_default=_MISSING, data_key=None, validate=None, allow_none=False):
        self.required = required
        self.load_default = load_default
        self.data_key = data_key
        self.validators = [validate] if callable(validate) else list(validate or [])
        self.allow_none = allow_none
        self.name = None

    def bind(self, name):
        self.name = name
        if self.data_key is None:
            self.data_key = name

    def deserialize(self, value):
        if value is None:
            if self.allow_none:
                return None
            raise FieldError("may not be null")
        result = self._deserialize(value)
        for check in self.validators:
            if check(result) is False:
                raise FieldError("failed validation")
        return result

    def serialize(self, value):
        return None if value is None else self._serialize(value)

    def _deserialize(self, value):
        return value

    def _serialize(self, value):
        return value


class String(Field):
    def _deserialize(self, value):
        if not isinstance(value, str):
            raise FieldError("not a string")
        return value


class Integer(Field):
    def _deserialize(self, value):
        if isinstance(value, bool):
            raise FieldError("not an integer")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise FieldError("not an integer") from None


class Boolean(Field):
    TRUTHY = {True, "true", "1", 1, "yes"}
    FALSY = {False, "false", "0", 0, "no"}

    def _deserialize(self, value):
        key = value.lower() if isinstance(value, str) else value
        if key in self.TRUTHY:
            return True
        if key in self.FALSY:
            return False
        raise FieldError("not a boolean")


class DateTime(Field):
    """ISO 8601 by default; pass `format` (strftime syntax) for another text form."""

    def __init__(self, format=None, **kwargs):
        super().__init__(**kwargs)
        self.format = format

    def _deserialize(self, value):
        if isinstance(value, _dt.datetime):
            return value
        if not isinstance(value, str):
            raise FieldError("not a date-time string")
        try:
            if self.format:
                parsed = _dt.datetime.strptime(value, self.format)
                return parsed.replace(tzinfo=_dt.timezone.utc) if parsed.tzinfo is None else parsed
            return _dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise FieldError(f"not a date-time in {'ISO 8601' if not self.format else self.format}") from None

    def _serialize(self, value):
        return value.strftime(self.format) if self.format else value.isoformat()


class List(Field):
    def __init__(self, inner, **kwargs):
        super().__init__(**kwargs)
        self.inner = inner

    def _deserialize(self, value):
        if not isinstance(value, (list, tuple)):
            raise FieldError("not a list")
        return [self.inner.deserialize(v) for v in value]

    def _serialize(self, value):
        return [self.inner.serialize(v) for v in value]


class Nested(Field):
    def __init__(self, schema, **kwargs):
        super().__init__(**kwargs)
        self.schema = schema

    def _deserialize(self, value):
        try:
            return self.schema.load(value)
        except ValidationError as exc:
            raise FieldError(exc.messages) from None

    def _serialize(self, value):
        return self.schema.dump(value)
