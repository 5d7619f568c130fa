"""Character classes a password policy can ask for."""

import string

CHECKS = {
    "lowercase": lambda s: any(c in string.ascii_lowercase for c in s),
    "uppercase": lambda s: any(c in string.ascii_uppercase for c in s),
    "digit": lambda s: any(c.isdigit() for c in s),
    "symbol": lambda s: any(not c.isalnum() and not c.isspace() for c in s),
}


def check(name, text):
    try:
        return CHECKS[name](text)
    except KeyError:
        raise ValueError(f"unknown character class {name!r}; known: {sorted(CHECKS)}") from None


def present(text):
    """The names of the classes that occur in `text`, in CHECKS order."""
    return [name for name, test in CHECKS.items() if test(text)]
