import json
import os


class ManifestStore:
    """One JSON file per sailing, written atomically."""

    def __init__(self, directory):
        self.directory = directory
        os.makedirs(directory, exist_ok=True)

    def _path(self, sailing):
        safe = sailing.replace("/", "_")
        return os.path.join(self.directory, f"{safe}.json")

    def save(self, manifest):
        path = self._path(manifest.sailing)
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(manifest.to_dict(), fh, sort_keys=True)
        os.replace(tmp, path)

    def load(self, sailing, factory):
        path = self._path(sailing)
        if not os.path.exists(path):
            return None
        with open(path, encoding="utf-8") as fh:
            return factory(json.load(fh))

    def sailings(self):
        return sorted(name[:-5] for name in os.listdir(self.directory) if name.endswith(".json"))
