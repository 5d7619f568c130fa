"""Built-in configuration: the defaults every deployment starts from, and the named profiles."""

DEFAULTS = {
    "service": {"name": "orders", "port": 8080, "workers": 4},
    "database": {
        "host": "localhost",
        "port": 5432,
        "pool": {"size": 5, "timeout_s": 10},
        "options": {"sslmode": "prefer"},
    },
    "cache": {"backend": "memory", "ttl_s": 300},
    "logging": {"level": "INFO", "json": False},
}

PROFILES = {
    "dev": {
        "logging": {"level": "DEBUG"},
        "database": {"pool": {"size": 2}},
    },
    "staging": {
        "service": {"workers": 2},
        "database": {"host": "db.staging.internal"},
    },
    "prod": {
        "service": {"workers": 16},
        "database": {
            "host": "db.prod.internal",
            "pool": {"size": 40, "timeout_s": 3},
            "options": {"sslmode": "require"},
        },
        "cache": {"backend": "redis", "ttl_s": 900},
        "logging": {"json": True},
        "features": {"new_checkout": True, "beta_reports": False},
    },
}


def profile_names():
    return sorted(PROFILES)


def section_names():
    """Top-level sections every configuration has."""
    return sorted(DEFAULTS)
