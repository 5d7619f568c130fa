"""One JSON file per user holding only the preferences that differ from the defaults.

Storing overrides only means a change to a factory default reaches every user who never touched that setting.
"""
import json
from pathlib import Path

from defaults import DEFAULTS


def _overrides(defaults: dict, current: dict) -> dict:
    diff = {}
    for key, default in defaults.items():
        value = current.get(key, default)
        if isinstance(default, dict):
            nested = _overrides(default, value)
            if nested:
                diff[key] = nested
        elif value != default:
            diff[key] = value
    return diff


def _with_defaults(defaults: dict, stored: dict) -> dict:
    merged = {}
    for key, default in defaults.items():
        if isinstance(default, dict):
            merged[key] = _with_defaults(default, stored.get(key, {}))
        else:
            merged[key] = stored.get(key) or default
    return merged


class PreferenceStore:
    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)

    def _path(self, user_id: str) -> Path:
        return self.directory / f"{user_id}.json"

    def save(self, user_id: str, prefs: dict) -> None:
        self._path(user_id).write_text(json.dumps(_overrides(DEFAULTS, prefs), sort_keys=True))

    def load(self, user_id: str) -> dict:
        path = self._path(user_id)
        stored = json.loads(path.read_text()) if path.exists() else {}
        return _with_defaults(DEFAULTS, stored)
