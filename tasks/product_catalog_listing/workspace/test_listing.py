import pytest

from catalog import Catalog, Product
from listing import list_products, parse_page_params


def make_catalog(n):
    return Catalog(Product(sku=f"SKU{i:03d}", name=f"Item {i:03d}", price_cents=100 * i, tags=("home",)) for i in range(n))


def test_first_page_links_to_next():
    body = list_products(make_catalog(45), {"per_page": "20"})
    assert [p["sku"] for p in body["items"]][:2] == ["SKU000", "SKU001"]
    assert body["links"] == {"next": "/products?page=2&per_page=20"}


def test_every_product_is_reachable_by_following_next_links():
    catalog = make_catalog(45)
    seen, params = [], {"per_page": "20"}
    while True:
        body = list_products(catalog, params)
        seen.extend(p["sku"] for p in body["items"])
        if "next" not in body["links"]:
            break
        params = {"page": body["page"] + 1, "per_page": "20"}
    assert len(seen) == 45, f"walked {len(seen)} of 45 products"


def test_total_pages_reported_for_partial_last_page():
    body = list_products(make_catalog(45), {"per_page": "20"})
    assert body["total_pages"] == 3


def test_exact_multiple_has_no_empty_trailing_page():
    body = list_products(make_catalog(40), {"page": "2", "per_page": "20"})
    assert body["total_pages"] == 2
    assert "next" not in body["links"]


def test_empty_catalog_has_one_empty_page():
    body = list_products(Catalog(), {})
    assert body["items"] == [] and body["total_pages"] == 1 and body["links"] == {}


def test_page_size_is_clamped():
    assert parse_page_params({"per_page": "1000"}) == (1, 100)
    with pytest.raises(ValueError):
        parse_page_params({"page": "two"})
