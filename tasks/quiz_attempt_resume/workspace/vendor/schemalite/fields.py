from .errors import ValidationError

_MISSING = object()


class Field:
    def __init__(self, required=False, default=_MISSING, data_key=None, allow_none=False):
        self.required = required
        self.default = default
        self.data_key = data_key
        self.allow_none = allow_none
        self.name = None

    def bind(self, name):
        self.name = name
        if self.data_key is None:
            self.data_key = name

    def serialize(self, value):
        return None if value is None else self._serialize(value)

    def deserialize(self, value):
        if value is None:
            if self.allow_none:
                return None
            raise ValidationError("may not be null")
        return self._deserialize(value)

    def _serialize(self, value):
        return value

    def _deserialize(self, value):
        return value


class Str(Field):
    def _deserialize(self, value):
        if not isinstance(value, str):
            raise ValidationError("not a string")
        return value


class Int(Field):
    def _serialize(self, value):
        return int(value)

    def _deserialize(self, value):
        if isinstance(value, bool):
            raise ValidationError("not an integer")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ValidationError("not an integer") from None


class Float(Field):
    def _serialize(self, value):
        return float(value)

    def _deserialize(self, value):
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ValidationError("not a number") from None


class List(Field):
    def __init__(self, inner, **kwargs):
        super().__init__(**kwargs)
        self.inner = inner

    def _serialize(self, value):
        return [self.inner.serialize(v) for v in value]

    def _deserialize(self, value):
        if not isinstance(value, list):
            raise ValidationError("not a list")
        return [self.inner.deserialize(v) for v in value]


class Dict(Field):
    """A mapping. JSON object keys are strings: give `keys` to convert them back on load."""

    def __init__(self, keys=None, values=None, **kwargs):
        super().__init__(**kwargs)
        self.keys = keys
        self.values = values

    def _serialize(self, value):
        out = {}
        for k, v in value.items():
            out[str(k)] = self.values.serialize(v) if self.values else v
        return out

    def _deserialize(self, value):
        if not isinstance(value, dict):
            raise ValidationError("not a mapping")
        out = {}
        for k, v in value.items():
            key = self.keys.deserialize(k) if self.keys else k
            out[key] = self.values.deserialize(v) if self.values else v
        return out


class Nested(Field):
    def __init__(self, schema, **kwargs):
        super().__init__(**kwargs)
        self.schema = schema

    def _serialize(self, value):
        return self.schema.dump(value)

    def _deserialize(self, value):
        return self.schema.load(value)
