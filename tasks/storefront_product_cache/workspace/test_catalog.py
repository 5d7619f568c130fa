from decimal import Decimal

from cache import Cache
from catalog import CatalogService
from repository import Product, ProductRepository


def make_catalog():
    repo = ProductRepository([
        Product(1, "blue-mug", "Blue mug", "kitchen", Decimal("8.00")),
        Product(2, "tea-towel", "Tea towel", "kitchen", Decimal("4.50")),
        Product(3, "desk-lamp", "Desk lamp", "office", Decimal("24.00")),
    ])
    cache = Cache()
    return repo, cache, CatalogService(repo, cache)


def test_product_pages_are_served_from_cache():
    repo, cache, catalog = make_catalog()
    for _ in range(3):
        assert catalog.product(1).name == "Blue mug"
        assert catalog.product_by_slug("desk-lamp").price == Decimal("24.00")
    assert repo.reads == 2
    assert cache.hits == 4


def test_category_listing_is_sorted_and_cached():
    repo, _, catalog = make_catalog()
    expected = [("Blue mug", Decimal("8.00")), ("Tea towel", Decimal("4.50"))]
    assert catalog.category_listing("kitchen") == expected
    assert catalog.category_listing("kitchen") == expected
    assert repo.reads == 1


def test_price_change_shows_on_product_page():
    _, _, catalog = make_catalog()
    catalog.product(1)
    catalog.update_product(1, price="6.50")
    assert catalog.product(1).price == Decimal("6.50")
    assert catalog.category_listing("kitchen")[0] == ("Blue mug", Decimal("6.50"))


def test_price_change_shows_on_page_reached_by_slug():
    _, _, catalog = make_catalog()
    assert catalog.product_by_slug("blue-mug").price == Decimal("8.00")
    catalog.product(1)
    catalog.update_product(1, price="6.50")
    assert catalog.product_by_slug("blue-mug").price == Decimal("6.50")


def test_moved_product_appears_in_new_category():
    _, _, catalog = make_catalog()
    catalog.category_listing("office")
    catalog.update_product(2, category="office")
    assert [name for name, _ in catalog.category_listing("office")] == ["Desk lamp", "Tea towel"]


def test_moved_product_leaves_old_category():
    _, _, catalog = make_catalog()
    catalog.category_listing("kitchen")
    catalog.update_product(2, category="office")
    assert [name for name, _ in catalog.category_listing("kitchen")] == ["Blue mug"]
