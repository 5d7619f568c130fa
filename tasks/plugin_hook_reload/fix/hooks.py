"""Named hooks: plugins register callbacks for editor events, the editor emits them in registration order."""
import logging

log = logging.getLogger(__name__)

EVENTS = ("open", "edit", "save", "close")


class HookError(ValueError):
    pass


class HookRegistry:
    def __init__(self):
        self._hooks = {event: [] for event in EVENTS}
        self.errors = []

    def register(self, event, callback):
        if event not in self._hooks:
            raise HookError(f"unknown event {event!r}; events: {', '.join(EVENTS)}")
        if not callable(callback):
            raise HookError(f"hook for {event} is not callable: {callback!r}")
        self._hooks[event].append(callback)

    def unregister(self, event, callback):
        self._hooks[event] = [cb for cb in self._hooks[event] if cb != callback]

    def count(self, event=None):
        if event is None:
            return sum(len(cbs) for cbs in self._hooks.values())
        return len(self._hooks[event])

    def emit(self, event, *args):
        """Call every hook for `event`; a failing hook is logged and does not stop the others."""
        results = []
        for callback in list(self._hooks[event]):
            try:
                results.append(callback(*args))
            except Exception as exc:
                log.warning("hook %r for %s failed: %s", callback, event, exc)
                self.errors.append((event, repr(exc)))
        return results
