"""Graceful shutdown: components register cleanup hooks as they start."""


class ShutdownManager:
    def __init__(self):
        self._hooks = []
        self.errors = []
        self.done = False

    def on_shutdown(self, name, hook):
        if self.done:
            raise RuntimeError(f"cannot register {name!r}: shutdown already ran")
        self._hooks.append((name, hook))

    def shutdown(self):
        """Run every hook once. A failing hook is recorded and the rest still run."""
        if self.done:
            return
        self.done = True
        for name, hook in self._hooks:
            try:
                hook()
            except Exception as exc:
                self.errors.append((name, f"{type(exc).__name__}: {exc}"))
