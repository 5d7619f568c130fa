"""The media catalog: uploaded assets and the tags editors and the auto-tagger attach to them."""
from dataclasses import dataclass

NO_TAGS: list[str] = []


@dataclass(frozen=True)
class Asset:
    asset_id: str
    kind: str  # "image", "video" or "document"
    width: int = 0
    height: int = 0
    duration_s: float = 0.0


class AssetCatalog:
    def __init__(self):
        self._assets: dict[str, Asset] = {}
        self._tags: dict[str, list[str]] = {}

    def add(self, asset: Asset) -> None:
        if asset.kind not in ("image", "video", "document"):
            raise ValueError(f"{asset.asset_id}: unknown kind {asset.kind!r}")
        if asset.asset_id in self._assets:
            raise ValueError(f"{asset.asset_id} is already in the catalog")
        self._assets[asset.asset_id] = asset

    def get(self, asset_id: str) -> Asset:
        return self._assets[asset_id]

    def ids(self) -> list[str]:
        return sorted(self._assets)

    def tags_for(self, asset_id: str) -> list[str]:
        if asset_id not in self._assets:
            raise KeyError(asset_id)
        return self._tags.get(asset_id, NO_TAGS)

    def add_tag(self, asset_id: str, tag: str) -> None:
        tags = self._tags.setdefault(asset_id, [])
        if tag not in tags:
            tags.append(tag)

    def set_tags(self, asset_id: str, tags: list[str]) -> None:
        if asset_id not in self._assets:
            raise KeyError(asset_id)
        self._tags[asset_id] = tags
