from cart import add_to_cart, view_cart
from middleware import COOKIE, Request, SessionMiddleware
from sessions import SessionStore

MINUTE = 60
IDLE_TIMEOUT = 30 * MINUTE


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Browser:
    """Keeps the session cookie between requests, like a real browser."""

    def __init__(self, app):
        self._app = app
        self.cookies = {}
        self.new_sessions = 0

    def get(self, path, handler):
        response, set_cookies = self._app(Request(path, dict(self.cookies)), handler)
        if set_cookies:
            self.new_sessions += 1
        self.cookies.update(set_cookies)
        return response


def make_shop():
    clock = Clock()
    store = SessionStore(IDLE_TIMEOUT, clock=clock)
    return clock, store, Browser(SessionMiddleware(store))


def test_cart_is_kept_between_requests():
    _, _, browser = make_shop()
    browser.get("/add", lambda r: add_to_cart(r, "tea", 2))
    browser.get("/add", lambda r: add_to_cart(r, "mug"))
    assert browser.get("/cart", view_cart) == {"tea": 2, "mug": 1}
    assert browser.new_sessions == 1


def test_abandoned_cart_expires_after_idle_timeout():
    clock, _, browser = make_shop()
    browser.get("/add", lambda r: add_to_cart(r, "tea"))
    clock.now += IDLE_TIMEOUT + 1
    assert browser.get("/cart", view_cart) == {}
    assert browser.new_sessions == 2


def test_active_shopper_keeps_cart_for_a_long_visit():
    clock, _, browser = make_shop()
    browser.get("/add", lambda r: add_to_cart(r, "tea"))
    for _ in range(8):
        clock.now += 10 * MINUTE
        browser.get("/add", lambda r: add_to_cart(r, "biscuits"))
    assert browser.get("/cart", view_cart) == {"tea": 1, "biscuits": 8}
    assert browser.new_sessions == 1


def test_purge_keeps_sessions_still_in_use():
    clock, store, active = make_shop()
    idle = Browser(SessionMiddleware(store))
    active.get("/", view_cart)
    idle.get("/", view_cart)
    clock.now += 20 * MINUTE
    active.get("/", view_cart)
    clock.now += 20 * MINUTE
    assert store.purge() == 1
    assert store.get(active.cookies[COOKIE]) is not None
    assert store.get(idle.cookies[COOKIE]) is None
