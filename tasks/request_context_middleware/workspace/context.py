"""Per-thread request context: who is calling and on whose behalf, read by logging and auditing."""
import threading

_lock = threading.Lock()
_contexts = {}


def _key():
    return threading.get_ident()


def bind(**values):
    """Add `values` to the current thread's context."""
    with _lock:
        _contexts.setdefault(_key(), {}).update(values)


def current():
    with _lock:
        return dict(_contexts.get(_key(), {}))


def get(name, default=None):
    return current().get(name, default)


def clear():
    with _lock:
        _contexts.pop(_key(), None)


def snapshot():
    """Every thread's context, for the /debug/contexts page."""
    with _lock:
        return {ident: dict(values) for ident, values in _contexts.items()}
