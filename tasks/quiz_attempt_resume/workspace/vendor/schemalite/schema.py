from .errors import ValidationError
from .fields import _MISSING, Field


def post_load(fn):
    """Mark a method that turns the loaded dict into an object."""
    fn._schemalite_post_load = True
    return fn


class Schema:
    def __init__(self):
        self.fields = {}
        self._post_load = None
        for klass in reversed(type(self).__mro__):
            for name, value in vars(klass).items():
                if isinstance(value, Field):
                    value.bind(name)
                    self.fields[name] = value
                elif getattr(value, "_schemalite_post_load", False):
                    self._post_load = name

    def dump(self, obj):
        out = {}
        for name, f in self.fields.items():
            value = obj.get(name, _MISSING) if isinstance(obj, dict) else getattr(obj, name, _MISSING)
            if value is _MISSING:
                continue
            out[f.data_key] = f.serialize(value)
        return out

    def load(self, data):
        if not isinstance(data, dict):
            raise ValidationError("expected an object")
        out, errors = {}, {}
        for name, f in self.fields.items():
            if f.data_key not in data:
                if f.required:
                    errors[f.data_key] = ["is required"]
                elif f.default is not _MISSING:
                    out[name] = f.default() if callable(f.default) else f.default
                continue
            try:
                out[name] = f.deserialize(data[f.data_key])
            except ValidationError as exc:
                for msgs in exc.messages.values():
                    errors.setdefault(f.data_key, []).extend(msgs)
        if errors:
            raise ValidationError(errors)
        return getattr(self, self._post_load)(out) if self._post_load else out
