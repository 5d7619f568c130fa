"""Plugin host for the projection booth: plugins declare what they need, start after their needs and
must stop before them."""


class PluginError(RuntimeError):
    pass


class Plugin:
    name = "plugin"
    needs = ()

    def __init__(self):
        self.running = False
        self.host = None

    def start(self):
        self.running = True

    def stop(self):
        self.running = False

    def dep(self, name):
        plugin = self.host.get(name)
        if not plugin.running:
            raise PluginError(f"{self.name}: {name} is not running")
        return plugin


class Host:
    def __init__(self, log=None):
        self._plugins = {}
        self._started = []
        self.log = log if log is not None else []

    def add(self, plugin):
        if plugin.name in self._plugins:
            raise PluginError(f"duplicate plugin {plugin.name}")
        plugin.host = self
        self._plugins[plugin.name] = plugin
        return plugin

    def get(self, name):
        try:
            return self._plugins[name]
        except KeyError:
            raise PluginError(f"no plugin {name}") from None

    def start_order(self):
        order, visiting, done = [], set(), set()

        def visit(name):
            if name in done:
                return
            if name in visiting:
                raise PluginError(f"dependency cycle through {name}")
            visiting.add(name)
            for need in self.get(name).needs:
                visit(need)
            visiting.discard(name)
            done.add(name)
            order.append(name)

        for name in sorted(self._plugins):
            visit(name)
        return order

    def start_all(self):
        for name in self.start_order():
            self._plugins[name].start()
            self._started.append(name)
            self.log.append(f"start {name}")

    def stop_all(self):
        errors = []
        for name in self._started:
            try:
                self._plugins[name].stop()
                self.log.append(f"stop {name}")
            except PluginError as exc:
                errors.append(str(exc))
        self._started = []
        return errors
