from catalog_db import CatalogDB
from pricing import PriceService
from promotions import CategorySale, apply_percent
from vendor.memocache import LRUCache, TTLCache, cached


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_cache_library_bounds_and_expiry():
    lru = LRUCache(2)
    lru["a"], lru["b"] = 1, 2
    lru["a"]
    lru["c"] = 3
    assert sorted(lru) == ["a", "c"]
    clock = Clock()
    ttl = TTLCache(4, ttl=10, timer=clock)
    ttl["k"] = 1
    clock.now = 11
    assert "k" not in ttl
    calls = []
    f = cached(LRUCache(4))(lambda x: calls.append(x) or x * 2)
    assert (f(2), f(2), calls) == (4, 4, [2])


def test_guest_sees_list_price_and_db_is_queried_once():
    service = PriceService()
    assert service.view("KET-01")["price_cents"] == 3_999
    assert service.view("KET-01")["price_cents"] == 3_999
    assert service.db.queries == 1


def test_member_discount():
    assert PriceService().view("LMP-03", "member")["price_cents"] == apply_percent(2_450, 5)


def test_discount_is_not_applied_twice():
    service = PriceService()
    first = service.view("TOA-02", "gold")["price_cents"]
    second = service.view("TOA-02", "gold")["price_cents"]
    assert first == second == 4_949


def test_one_customers_discount_does_not_reach_another():
    service = PriceService(sales=[CategorySale("kitchen", 20)])
    service.view("KET-01", "gold")
    guest = service.view("KET-01", "guest")
    assert guest["price_cents"] == apply_percent(3_999, 20)
    assert guest["badges"] == ["sale"]


def test_basket_total_is_stable():
    service = PriceService()
    skus = ["KET-01", "LMP-03"]
    assert service.basket_total(skus, "member") == service.basket_total(skus, "member") == apply_percent(3_999, 5) + apply_percent(2_450, 5)


def test_price_change_shows_after_the_cache_expires():
    clock = Clock()
    db = CatalogDB()
    service = PriceService(db, timer=clock)
    service.view("LMP-03")
    db.update_price("LMP-03", 1_999)
    assert service.view("LMP-03")["price_cents"] == 2_450
    clock.now = 61
    assert service.view("LMP-03")["price_cents"] == 1_999
