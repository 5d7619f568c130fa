"""Tag search and facet counts for the media library UI."""
from collections import Counter

from catalog import AssetCatalog


def find_by_tag(catalog: AssetCatalog, tag: str) -> list[str]:
    return [asset_id for asset_id in catalog.ids() if tag in catalog.tags_for(asset_id)]


def find_by_all_tags(catalog: AssetCatalog, tags: set[str]) -> list[str]:
    return [asset_id for asset_id in catalog.ids() if tags <= set(catalog.tags_for(asset_id))]


def tag_facets(catalog: AssetCatalog) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for asset_id in catalog.ids():
        counts.update(set(catalog.tags_for(asset_id)))
    return dict(counts)
