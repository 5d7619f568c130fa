"""Event hooks that notification plugins attach to."""
from collections import defaultdict
from contextlib import contextmanager


class HookRegistry:
    def __init__(self):
        self._handlers = defaultdict(list)
        self._owner = None

    @contextmanager
    def owned_by(self, owner):
        """Tag every handler registered inside the block with `owner`, so it can be removed as a group."""
        previous, self._owner = self._owner, owner
        try:
            yield
        finally:
            self._owner = previous

    def register(self, event, handler):
        if not callable(handler):
            raise TypeError(f"handler for {event!r} is not callable: {handler!r}")
        self._handlers[event].append((self._owner, handler))
        return handler

    def unregister_owner(self, owner):
        for event, entries in self._handlers.items():
            self._handlers[event] = [(o, h) for o, h in entries if o != owner]

    def handler_count(self, event):
        return len(self._handlers.get(event, ()))

    def emit(self, event, payload):
        return [handler(payload) for _, handler in self._handlers.get(event, ())]
