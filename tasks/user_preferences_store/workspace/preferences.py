"""The preferences API used by the app's settings screen."""
from defaults import DEFAULTS, lookup
from prefs_store import PreferenceStore


class PreferenceError(ValueError):
    pass


class Preferences:
    def __init__(self, store: PreferenceStore):
        self.store = store

    def get(self, user_id: str, key: str):
        return lookup(self.store.load(user_id), key)

    def set(self, user_id: str, key: str, value) -> None:
        try:
            default = lookup(DEFAULTS, key)
        except KeyError:
            raise PreferenceError(f"unknown preference {key!r}") from None
        if isinstance(default, dict) or type(value) is not type(default):
            raise PreferenceError(f"{key} expects {type(default).__name__}, got {value!r}")
        prefs = self.store.load(user_id)
        section, _, name = key.rpartition(".")
        lookup(prefs, section)[name] = value
        self.store.save(user_id, prefs)
