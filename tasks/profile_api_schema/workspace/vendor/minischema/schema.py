from .errors import FieldError, ValidationError
from .fields import _MISSING, Field


class SchemaMeta(type):
    def __new__(mcs, name, bases, namespace):
        declared = {}
        for base in reversed(bases):
            declared.update(getattr(base, "_declared_fields", {}))
        for key, value in list(namespace.items()):
            if isinstance(value, Field):
                declared[key] = value
                namespace.pop(key)
        cls = super().__new__(mcs, name, bases, namespace)
        cls._declared_fields = declared
        return cls


class Schema(metaclass=SchemaMeta):
    """Subclass and declare fields as class attributes. Unknown input keys are an error unless unknown="exclude"."""

    def __init__(self, partial=False, unknown="raise"):
        self.partial = partial
        self.unknown = unknown
        self.fields = {}
        for name, field in self._declared_fields.items():
            field.bind(name)
            self.fields[name] = field

    def load(self, data):
        if not isinstance(data, dict):
            raise ValidationError("input must be an object")
        errors, result = {}, {}
        by_key = {f.data_key: f for f in self.fields.values()}
        for key in data:
            if key not in by_key and self.unknown == "raise":
                errors.setdefault(key, []).append("unknown field")
        for key, field in by_key.items():
            if key not in data:
                if field.load_default is not _MISSING:
                    result[field.name] = field.load_default() if callable(field.load_default) else field.load_default
                elif field.required and not self.partial:
                    errors.setdefault(key, []).append("missing required field")
                continue
            try:
                result[field.name] = field.deserialize(data[key])
            except FieldError as exc:
                errors.setdefault(key, []).append(exc.args[0])
        if errors:
            raise ValidationError(errors, result)
        return self.post_load(result)

    def dump(self, obj):
        out = {}
        for field in self.fields.values():
            value = obj.get(field.name, _MISSING) if isinstance(obj, dict) else getattr(obj, field.name, _MISSING)
            if value is not _MISSING:
                out[field.data_key] = field.serialize(value)
        return out

    def post_load(self, data):
        return data
