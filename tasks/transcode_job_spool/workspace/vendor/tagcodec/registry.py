"""Which class each tag stands for, and how its instances turn into plain fields and back."""
import dataclasses

from .errors import CodecError, UnknownTag


def _fields_of(obj):
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def _builder(cls):
    """Build from fields, dropping names the class does not know, so older readers load newer payloads."""
    known = {f.name for f in dataclasses.fields(cls)}

    def build(fields):
        return cls(**{k: v for k, v in fields.items() if k in known})

    return build


class Registry:
    def __init__(self):
        self._by_tag = {}
        self._by_class = {}

    def register(self, cls, tag=None, encode=None, decode=None):
        """Register `cls` under `tag` (default: the class name, lower-cased). Registering a tag again replaces it."""
        if encode is None or decode is None:
            if not dataclasses.is_dataclass(cls):
                raise CodecError(f"{cls.__name__} is not a dataclass; pass encode= and decode=")
        tag = tag or cls.__name__.lower()
        entry = (tag, encode or _fields_of, decode or _builder(cls))
        self._by_tag[tag] = (cls,) + entry[1:]
        self._by_class[cls] = entry
        return cls

    def encoder_for(self, obj):
        entry = self._by_class.get(type(obj))
        if entry is None:
            raise CodecError(f"{type(obj).__name__} is not registered")
        return entry[0], entry[1]

    def decoder_for(self, tag):
        try:
            return self._by_tag[tag][2]
        except KeyError:
            raise UnknownTag(tag) from None

    def tags(self):
        return {tag: entry[0] for tag, entry in self._by_tag.items()}


REGISTRY = Registry()


def register(cls=None, **options):
    """Usable as @register, @register(tag="x") or register(cls, tag="x")."""
    if cls is None:
        return lambda c: REGISTRY.register(c, **options)
    return REGISTRY.register(cls, **options)
