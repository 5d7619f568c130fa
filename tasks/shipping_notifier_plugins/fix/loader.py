"""Load notification plugins from a directory and keep them in step with the files on disk.

Each plugin is a `.py` file defining `setup(registry)`. Operators edit plugins while the service runs
and call `scan()`, which loads new files, reloads edited ones and drops deleted ones.
"""
import hashlib
import importlib.util
from pathlib import Path


class PluginError(Exception):
    pass


class PluginLoader:
    def __init__(self, registry, directory):
        self._registry = registry
        self._dir = Path(directory)
        self._digests = {}

    @property
    def loaded(self):
        return sorted(self._digests)

    def scan(self):
        """Bring the registry in line with the directory; return the names (re)loaded."""
        on_disk = {
            path.stem: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(self._dir.glob("*.py"))
        }
        for name in sorted(set(self._digests) - set(on_disk)):
            self._registry.unregister_owner(name)
            del self._digests[name]
        changed = []
        for name, digest in on_disk.items():
            if self._digests.get(name) == digest:
                continue
            if name in self._digests:
                self._registry.unregister_owner(name)
            self._load(self._dir / f"{name}.py")
            self._digests[name] = digest
            changed.append(name)
        return changed

    def _load(self, path):
        spec = importlib.util.spec_from_file_location(f"notifier_plugin_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            raise PluginError(f"{path.name} failed to import: {exc}") from exc
        setup = getattr(module, "setup", None)
        if not callable(setup):
            raise PluginError(f"{path.name} has no setup(registry) function")
        with self._registry.owned_by(path.stem):
            setup(self._registry)
