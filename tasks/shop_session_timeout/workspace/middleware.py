"""Attach a session to each request from its cookie, starting a new one when needed."""
from dataclasses import dataclass, field

COOKIE = "shop_sid"


@dataclass
class Request:
    path: str
    cookies: dict = field(default_factory=dict)
    session: object = None


class SessionMiddleware:
    def __init__(self, store):
        self._store = store

    def __call__(self, request, handler):
        """Run `handler(request)` with `request.session` set; return (response, cookies to set)."""
        session = None
        sid = request.cookies.get(COOKIE)
        if sid:
            session = self._store.get(sid)
        set_cookies = {}
        if session is None:
            session = self._store.create()
            set_cookies[COOKIE] = session.session_id
        request.session = session
        return handler(request), set_cookies
