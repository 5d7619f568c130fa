"""Encoding: JSON values pass through; a registered extension type becomes {"$ext": code, "data": ...}."""
import json

from .errors import DecodeError, EncodeError
from .registry import default_registry

_TAG = "$ext"


def _encode(value, registry, path):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_encode(v, registry, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        if _TAG in value:
            raise EncodeError(value, path)
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise EncodeError(k, path)
            out[k] = _encode(v, registry, f"{path}.{k}" if path else k)
        return out
    entry = registry.encoder_for(value)
    if entry is None:
        raise EncodeError(value, path)
    code, encode = entry
    return {_TAG: code, "data": _encode(encode(value), registry, f"{path}<{code}>")}


def _decode(value, registry, path):
    if isinstance(value, list):
        return [_decode(v, registry, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        if _TAG in value:
            code = value[_TAG]
            decode = registry.decoder_for(code)
            if decode is None:
                raise DecodeError(f"unknown extension code {code!r}", path)
            return decode(_decode(value.get("data"), registry, path))
        return {k: _decode(v, registry, f"{path}.{k}" if path else k) for k, v in value.items()}
    return value


def dumps(value, registry=None, **json_options):
    return json.dumps(_encode(value, registry or default_registry, ""), **json_options)


def loads(text, registry=None):
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DecodeError(f"not JSON: {exc.msg}") from None
    return _decode(raw, registry or default_registry, "")
