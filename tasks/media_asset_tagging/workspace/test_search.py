import pytest

from catalog import Asset, AssetCatalog
from search import find_by_all_tags, find_by_tag, tag_facets
from tagging import AutoTagger


def test_editor_tags_are_searchable():
    cat = AssetCatalog()
    cat.add(Asset("img-1", "image", 800, 600))
    cat.add(Asset("img-2", "image", 800, 600))
    cat.add_tag("img-1", "hero")
    cat.add_tag("img-2", "hero")
    cat.add_tag("img-2", "summer")
    assert find_by_tag(cat, "hero") == ["img-1", "img-2"]
    assert find_by_all_tags(cat, {"hero", "summer"}) == ["img-2"]


def test_unknown_kind_is_rejected():
    with pytest.raises(ValueError, match="unknown kind"):
        AssetCatalog().add(Asset("x", "audio"))


def test_auto_tagger_keeps_editor_tags():
    cat = AssetCatalog()
    cat.add(Asset("img-3", "image", 1920, 1080))
    cat.add_tag("img-3", "hero")
    assert AutoTagger().tag(cat, "img-3") == ["hero", "landscape", "hd"]


def test_search_after_bulk_tagging_finds_only_matching_assets():
    cat = AssetCatalog()
    cat.add(Asset("img-10", "image", 4000, 3000))
    cat.add(Asset("doc-10", "document"))
    cat.add(Asset("vid-10", "video", 1280, 720, duration_s=42))
    AutoTagger().tag_all(cat)
    landscape = find_by_tag(cat, "landscape")
    assert landscape == ["img-10"], f"'landscape' search returned {landscape}"
    assert find_by_tag(cat, "clip") == ["vid-10"]


def test_facets_count_only_tagged_uploads():
    cat = AssetCatalog()
    cat.add(Asset("img-20", "image", 1200, 2400))
    AutoTagger().tag(cat, "img-20")
    cat.add(Asset("doc-20", "document"))  # uploaded later, not yet tagged
    facets = tag_facets(cat)
    assert facets == {"portrait": 1, "hd": 1}, f"facets: {facets}"
