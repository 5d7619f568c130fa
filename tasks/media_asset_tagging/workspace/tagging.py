"""Rule-based auto-tagger run after upload; it adds to, never removes, an editor's tags."""
from dataclasses import dataclass
from typing import Callable

from catalog import Asset, AssetCatalog


@dataclass(frozen=True)
class Rule:
    tag: str
    applies: Callable[[Asset], bool]


DEFAULT_RULES = (
    Rule("landscape", lambda a: a.kind == "image" and a.width > a.height),
    Rule("portrait", lambda a: a.kind == "image" and a.height > a.width),
    Rule("hd", lambda a: a.kind in ("image", "video") and min(a.width, a.height) >= 1080),
    Rule("clip", lambda a: a.kind == "video" and 0 < a.duration_s < 60),
    Rule("document", lambda a: a.kind == "document"),
)


class AutoTagger:
    def __init__(self, rules: tuple[Rule, ...] = DEFAULT_RULES):
        self.rules = rules

    def tag(self, catalog: AssetCatalog, asset_id: str) -> list[str]:
        asset = catalog.get(asset_id)
        tags = catalog.tags_for(asset_id)
        for rule in self.rules:
            if rule.applies(asset) and rule.tag not in tags:
                tags.append(rule.tag)
        catalog.set_tags(asset_id, tags)
        return tags

    def tag_all(self, catalog: AssetCatalog) -> None:
        for asset_id in catalog.ids():
            self.tag(catalog, asset_id)
