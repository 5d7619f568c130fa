_MISSING = object()


def get_path(config, path, default=_MISSING):
    node = config
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            if default is _MISSING:
                raise KeyError(path)
            return default
        node = node[part]
    return node


def set_path(config, path, value):
    parts = path.split(".")
    node = config
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise TypeError(f"{path}: {part} is not a section")
    node[parts[-1]] = value
    return config


def flatten(config, prefix=""):
    out = {}
    for key, value in config.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, path + "."))
        else:
            out[path] = value
    return out


def diff(base, other):
    """Paths whose value differs between two configs."""
    a, b = flatten(base), flatten(other)
    return sorted(p for p in set(a) | set(b) if a.get(p, _MISSING) != b.get(p, _MISSING))
