"""Who the current request acts for. Code deep inside a request reads it with RequestContext.current()."""


class PermissionDenied(Exception):
    pass


class RequestContext:
    _active: "RequestContext | None" = None

    def __init__(self, actor: str, request_id: str, roles: tuple[str, ...] = ()):
        if not actor:
            raise ValueError("a request needs an actor")
        self.actor = actor
        self.request_id = request_id
        self.roles = frozenset(roles)

    @classmethod
    def begin(cls, actor: str, request_id: str, roles: tuple[str, ...] = ()) -> "RequestContext":
        """Start a request: its context becomes current. Other contexts (service accounts) are plain objects."""
        ctx = cls(actor, request_id, roles)
        cls._active = ctx
        return ctx

    @classmethod
    def current(cls) -> "RequestContext":
        if cls._active is None:
            raise RuntimeError("no request is active")
        return cls._active

    def require(self, role: str) -> None:
        if role not in self.roles:
            raise PermissionDenied(f"{self.actor} lacks role {role!r} (request {self.request_id})")
