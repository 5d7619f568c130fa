"""Encoding walks the graph depth first; by-reference objects get an id the first time they are seen."""
import json

from .registry import SnapshotError

TYPE, ID, REF, DATA = "$type", "$id", "$ref", "$data"


class _Encoder:
    def __init__(self, registry):
        self.registry = registry
        self.ids = {}

    def encode(self, value):
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, (list, tuple)):
            return [self.encode(v) for v in value]
        if isinstance(value, dict):
            if not all(isinstance(k, str) for k in value):
                raise SnapshotError("dict keys must be strings")
            return {k: self.encode(v) for k, v in value.items()}
        entry = self.registry.for_object(value)
        if entry is None:
            raise SnapshotError(f"{type(value).__name__} is not registered")
        if entry.by_ref:
            if id(value) in self.ids:
                return {REF: self.ids[id(value)]}
            self.ids[id(value)] = len(self.ids) + 1
            return {TYPE: entry.tag, ID: self.ids[id(value)], DATA: self.encode(entry.dump(value))}
        return {TYPE: entry.tag, DATA: self.encode(entry.dump(value))}


class _Decoder:
    def __init__(self, registry):
        self.registry = registry
        self.objects = {}

    def decode(self, value):
        if isinstance(value, list):
            return [self.decode(v) for v in value]
        if not isinstance(value, dict):
            return value
        if REF in value:
            try:
                return self.objects[value[REF]]
            except KeyError:
                raise SnapshotError(f"reference {value[REF]} before its object") from None
        if TYPE in value:
            entry = self.registry.for_tag(value[TYPE])
            obj = entry.load(self.decode(value[DATA]))
            if ID in value:
                self.objects[value[ID]] = obj
            return obj
        return {k: self.decode(v) for k, v in value.items()}


def dumps(value, registry, indent=None):
    return json.dumps(_Encoder(registry).encode(value), indent=indent)


def loads(text, registry):
    return _Decoder(registry).decode(json.loads(text))
