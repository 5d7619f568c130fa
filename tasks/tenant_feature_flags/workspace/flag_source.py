"""Reads the feature-flag document that ops edit: global defaults plus per-tenant overrides."""
import functools
import json
from pathlib import Path


class FlagDocumentError(ValueError):
    pass


class FlagSource:
    def __init__(self, path: Path):
        self.path = Path(path)

    @functools.lru_cache(maxsize=8)
    def _document(self) -> dict:
        # Parsed once per source: flag checks sit on hot request paths.
        try:
            doc = json.loads(self.path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise FlagDocumentError(f"{self.path}: {exc}") from exc
        if not isinstance(doc.get("defaults"), dict):
            raise FlagDocumentError(f"{self.path}: 'defaults' must be an object")
        for name, value in doc["defaults"].items():
            if not isinstance(value, bool):
                raise FlagDocumentError(f"{self.path}: default for {name!r} must be true or false")
        return doc

    def defaults(self) -> dict[str, bool]:
        return self._document()["defaults"]

    def overrides_for(self, tenant: str) -> dict[str, bool]:
        return self._document().get("tenants", {}).get(tenant, {})

    def reload(self) -> None:
        FlagSource._document.cache_clear()
