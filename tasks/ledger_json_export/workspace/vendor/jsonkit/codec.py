import json

TAG_KEY = "$t"
VALUE_KEY = "v"


class EncodeError(TypeError):
    pass


class DecodeError(ValueError):
    pass


class Codec:
    """Encodes registered types as {"$t": tag, "v": <plain value>} and decodes them back.

    register(type, tag, encode, decode): `encode(obj)` must return something JSON can hold;
    `decode(plain)` gets exactly that back after the round trip.
    """

    def __init__(self):
        self._by_type = {}
        self._by_tag = {}

    def register(self, cls, tag, encode, decode):
        if tag in self._by_tag and self._by_tag[tag][0] is not cls:
            raise ValueError(f"tag {tag!r} already used for {self._by_tag[tag][0].__name__}")
        self._by_type[cls] = (tag, encode)
        self._by_tag[tag] = (cls, decode)
        return self

    def copy(self):
        other = Codec()
        other._by_type = dict(self._by_type)
        other._by_tag = dict(self._by_tag)
        return other

    def _default(self, obj):
        for cls in type(obj).__mro__:
            if cls in self._by_type:
                tag, encode = self._by_type[cls]
                return {TAG_KEY: tag, VALUE_KEY: encode(obj)}
        raise EncodeError(f"no encoder registered for {type(obj).__name__}")

    def _hook(self, obj):
        if TAG_KEY in obj and VALUE_KEY in obj and len(obj) == 2:
            tag = obj[TAG_KEY]
            if tag not in self._by_tag:
                raise DecodeError(f"unknown tag {tag!r}")
            _, decode = self._by_tag[tag]
            try:
                return decode(obj[VALUE_KEY])
            except Exception as exc:
                raise DecodeError(f"bad {tag} value {obj[VALUE_KEY]!r}: {exc}") from None
        return obj

    def dumps(self, obj, indent=None):
        try:
            return json.dumps(obj, default=self._default, indent=indent, sort_keys=True, allow_nan=False)
        except ValueError as exc:
            raise EncodeError(str(exc)) from None

    def loads(self, text):
        try:
            return json.loads(text, object_hook=self._hook)
        except json.JSONDecodeError as exc:
            raise DecodeError(f"not JSON: {exc}") from None
