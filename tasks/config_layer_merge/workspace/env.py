"""Environment overrides: APP__DATABASE__POOL__SIZE=20 sets database.pool.size to 20."""
PREFIX = "APP__"


class EnvError(ValueError):
    pass


def coerce(text):
    """Environment values are strings; read the obvious types out of them."""
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def env_layer(environ):
    """The nested override layer described by `environ`'s APP__ variables."""
    layer = {}
    for name in sorted(environ):
        if not name.startswith(PREFIX):
            continue
        parts = [p.lower() for p in name[len(PREFIX):].split("__")]
        if not all(parts):
            raise EnvError(f"{name}: empty path segment")
        node = layer
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise EnvError(f"{name}: {part} is both a value and a section")
        node[parts[-1]] = coerce(environ[name])
    return layer
