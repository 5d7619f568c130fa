"""The quota middleware: every API call spends one token from its client's bucket."""
import math
from dataclasses import dataclass, field

from plans import ClientDirectory, UnknownClient, limits_for_plan
from vendor.bucketlimit import BucketStore, RateLimited


@dataclass
class Request:
    path: str
    headers: dict = field(default_factory=dict)


@dataclass
class Response:
    status: int
    body: dict
    headers: dict = field(default_factory=dict)


class QuotaMiddleware:
    def __init__(self, app, directory=None, clock=None):
        self.app = app
        self.directory = directory or ClientDirectory()
        options = {"clock": clock} if clock is not None else {}
        self.store = BucketStore(self._limits, **options)
        self.rejected = {}

    @staticmethod
    def _limits(key):
        plan = key.split(":", 1)[0]
        return limits_for_plan(plan)

    def __call__(self, request):
        try:
            client = self.directory.lookup(request.headers.get("X-Api-Key", ""))
        except UnknownClient:
            return Response(401, {"error": "unknown API key"})
        try:
            self.store.take(f"{client.plan}:{client.client_id}")
        except RateLimited as exc:
            self.rejected[client.client_id] = self.rejected.get(client.client_id, 0) + 1
            return Response(429, {"error": "rate limited"}, {"Retry-After": str(math.ceil(exc.retry_after))})
        response = self.app(request, client)
        response.headers.update(self.quota_headers(client))
        return response

    def quota_headers(self, client):
        rate, capacity = limits_for_plan(client.plan)
        remaining = int(self.store.peek(f"{client.plan}:{client.client_id}"))
        return {"X-RateLimit-Limit": str(capacity), "X-RateLimit-Remaining": str(remaining)}
