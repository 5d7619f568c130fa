"""Checking a merged configuration against the types each dotted key must have."""


class ConfigError(ValueError):
    def __init__(self, problems):
        super().__init__("; ".join(problems))
        self.problems = problems


def _lookup(conf, dotted):
    node = conf
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return _lookup
        node = node[part]
    return node


def require(conf, spec):
    """`spec` maps dotted keys to a type or a tuple of types; raises ConfigError listing every problem."""
    problems = []
    for dotted, types in spec.items():
        value = _lookup(conf, dotted)
        if value is _lookup:
            problems.append(f"{dotted} is missing")
        elif isinstance(value, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
            problems.append(f"{dotted} must not be true/false")
        elif not isinstance(value, types):
            problems.append(f"{dotted} has type {type(value).__name__}")
    if problems:
        raise ConfigError(problems)
    return conf
