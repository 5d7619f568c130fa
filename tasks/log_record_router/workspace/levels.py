"""Severity levels, accepted in any case and with the usual aliases."""

RANKS = {"DEBUG": 10, "INFO": 20, "WARNING": 30, "ERROR": 40, "CRITICAL": 50}
ALIASES = {"WARN": "WARNING", "FATAL": "CRITICAL", "ERR": "ERROR"}


def normalize(level):
    """Canonical upper-case level name."""
    name = str(level).strip().upper()
    name = ALIASES.get(name, name)
    if name not in RANKS:
        raise ValueError(f"unknown log level {level!r}; expected one of {list(RANKS)}")
    return name


def rank(level):
    return RANKS[normalize(level)]
