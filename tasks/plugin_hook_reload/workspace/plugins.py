"""The plugin base class. A plugin's `on_<event>` methods are its hooks."""
from hooks import EVENTS


class Plugin:
    name = "plugin"
    version = "0"

    def __init__(self, settings=None):
        self.settings = dict(settings or {})
        self.active = False

    def hooks(self):
        """(event, bound method) for every on_<event> method this plugin defines."""
        found = []
        for event in EVENTS:
            method = getattr(self, f"on_{event}", None)
            if method is not None:
                found.append((event, method))
        return found

    def activate(self, registry):
        for event, method in self.hooks():
            registry.register(event, getattr(self, f"on_{event}"))
        self.active = True

    def deactivate(self, registry):
        for event, _ in self.hooks():
            registry.unregister(event, getattr(self, f"on_{event}"))
        self.active = False

    def describe(self):
        return f"{self.name} {self.version} ({', '.join(e for e, _ in self.hooks())})"
