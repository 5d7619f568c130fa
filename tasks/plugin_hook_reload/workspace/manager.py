"""Loading, unloading and reloading plugins while the editor runs."""
from bundled import BUNDLED
from hooks import HookRegistry


class PluginNotFound(KeyError):
    pass


class PluginManager:
    def __init__(self, registry=None, available=None):
        self.registry = registry if registry is not None else HookRegistry()
        self.available = dict(available if available is not None else BUNDLED)
        self.loaded = {}

    def load(self, name, settings=None):
        if name in self.loaded:
            return self.loaded[name]
        try:
            cls = self.available[name]
        except KeyError:
            raise PluginNotFound(f"no plugin {name!r}; available: {', '.join(sorted(self.available))}") from None
        plugin = cls(settings)
        plugin.activate(self.registry)
        self.loaded[name] = plugin
        return plugin

    def unload(self, name):
        plugin = self.loaded.pop(name)
        plugin.deactivate(self.registry)
        return plugin

    def reload(self, name, settings=None):
        """Replace a loaded plugin with a fresh instance (new settings, or the old ones)."""
        old = self.unload(name)
        return self.load(name, settings if settings is not None else old.settings)

    def load_all(self, config):
        """Load plugins from the editor's config: {"plugins": {"name": {settings} or None}}."""
        wanted = config.get("plugins", {})
        for name in sorted(wanted):
            self.load(name, wanted[name])
        for name in sorted(set(self.loaded) - set(wanted)):
            self.unload(name)
        return sorted(self.loaded)

    def status(self):
        return {name: plugin.describe() for name, plugin in sorted(self.loaded.items())}
