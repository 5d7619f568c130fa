"""Sanity checks on a fully loaded configuration, run before a service starts with it."""

LOG_LEVELS = ("DEBUG", "INFO", "WARN", "ERROR")
CACHE_BACKENDS = ("memory", "redis")
SSL_MODES = ("disable", "prefer", "require", "verify-full")


class ConfigError(ValueError):
    def __init__(self, problems):
        super().__init__("; ".join(problems))
        self.problems = problems


def _port(value):
    return isinstance(value, int) and 0 < value < 65536


def problems(data):
    """Every problem found in `data`, as dotted-key messages; empty when the configuration is usable."""
    found = []
    service, db, cache, log = (data.get(k, {}) for k in ("service", "database", "cache", "logging"))
    if not _port(service.get("port")):
        found.append(f"service.port: {service.get('port')!r} is not a port")
    if not isinstance(service.get("workers"), int) or service["workers"] < 1:
        found.append(f"service.workers: {service.get('workers')!r} must be a positive integer")
    if not db.get("host"):
        found.append("database.host: missing")
    if not _port(db.get("port")):
        found.append(f"database.port: {db.get('port')!r} is not a port")
    pool = db.get("pool", {})
    if not isinstance(pool.get("size"), int) or pool["size"] < 1:
        found.append(f"database.pool.size: {pool.get('size')!r} must be a positive integer")
    if not isinstance(pool.get("timeout_s"), (int, float)) or pool["timeout_s"] <= 0:
        found.append(f"database.pool.timeout_s: {pool.get('timeout_s')!r} must be positive")
    if db.get("options", {}).get("sslmode") not in SSL_MODES:
        found.append(f"database.options.sslmode: must be one of {', '.join(SSL_MODES)}")
    if cache.get("backend") not in CACHE_BACKENDS:
        found.append(f"cache.backend: must be one of {', '.join(CACHE_BACKENDS)}")
    if log.get("level") not in LOG_LEVELS:
        found.append(f"logging.level: must be one of {', '.join(LOG_LEVELS)}")
    return found


def check(data):
    found = problems(data)
    if found:
        raise ConfigError(found)
    return data
