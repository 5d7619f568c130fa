from collections.abc import Mapping

from .errors import PathError


def _split(path):
    parts = [p for p in path.split(".") if p]
    if not parts:
        raise ValueError("empty path")
    return parts


def get_path(values, path, default=PathError):
    node = values
    for part in _split(path):
        if not isinstance(node, Mapping) or part not in node:
            if default is PathError:
                raise PathError(path, part)
            return default
        node = node[part]
    return node


def set_path(values, path, value):
    parts = _split(path)
    node = values
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, Mapping):
            raise PathError(path, part)
    node[parts[-1]] = value
    return values


def flatten(values, prefix=""):
    """{"a": {"b": 1}} -> {"a.b": 1}; lists are leaves."""
    out = {}
    for key, value in values.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Mapping) and value:
            out.update(flatten(value, path))
        else:
            out[path] = value
    return out
