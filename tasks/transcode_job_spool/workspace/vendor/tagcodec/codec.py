"""Encoding: registered objects become {"__t": tag, "v": fields}; tuples become {"__tuple": [...]}."""
import json

from .errors import CodecError
from .registry import REGISTRY

_SCALARS = (str, int, float, bool, type(None))


def _encode(value, registry):
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, list):
        return [_encode(v, registry) for v in value]
    if isinstance(value, tuple):
        return {"__tuple": [_encode(v, registry) for v in value]}
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise CodecError("only string keys can be encoded")
        return {k: _encode(v, registry) for k, v in value.items()}
    tag, fields = registry.encoder_for(value)
    return {"__t": tag, "v": _encode(fields(value), registry)}


def _decode(value, registry):
    if isinstance(value, list):
        return [_decode(v, registry) for v in value]
    if isinstance(value, dict):
        if "__tuple" in value:
            return tuple(_decode(v, registry) for v in value["__tuple"])
        if "__t" in value:
            return registry.decoder_for(value["__t"])(_decode(value["v"], registry))
        return {k: _decode(v, registry) for k, v in value.items()}
    return value


def dumps(value, registry=REGISTRY, **json_options):
    return json.dumps(_encode(value, registry), **json_options)


def loads(text, registry=REGISTRY):
    return _decode(json.loads(text), registry)
