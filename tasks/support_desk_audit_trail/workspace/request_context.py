"""Who the current request acts for. Code deep inside a request reads it with RequestContext.current()."""


class PermissionDenied(Exception):
    pass


class RequestContext:
    _active: "RequestContext | None" = None

    def __new__(cls, *args, **kwargs):
        # One context object per worker: components that looked it up once keep seeing the live request.
        if cls._active is None:
            cls._active = super().__new__(cls)
        return cls._active

    def __init__(self, actor: str, request_id: str, roles: tuple[str, ...] = ()):
        if not actor:
            raise ValueError("a request needs an actor")
        self.actor = actor
        self.request_id = request_id
        self.roles = frozenset(roles)

    @classmethod
    def current(cls) -> "RequestContext":
        if cls._active is None:
            raise RuntimeError("no request is active")
        return cls._active

    def require(self, role: str) -> None:
        if role not in self.roles:
            raise PermissionDenied(f"{self.actor} lacks role {role!r} (request {self.request_id})")
