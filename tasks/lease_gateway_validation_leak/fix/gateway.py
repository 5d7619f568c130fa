"""The object gateway: validates requests, takes an upstream lease, and calls storage."""
from dataclasses import dataclass

from leases import LeasePool, PoolExhausted
from storage import NotFound, Storage
from validation import Invalid, validate


@dataclass
class Request:
    method: str
    tenant: str
    key: str
    body: bytes | None = None
    request_id: str = ""


@dataclass
class Response:
    status: int
    body: bytes = b""
    error: str = ""


class Gateway:
    def __init__(self, storage=None, capacity=4, acquire_timeout=0.05):
        self.storage = storage if storage is not None else Storage()
        self.pool = LeasePool(capacity, acquire_timeout)
        self.log = []

    def handle(self, request):
        holder = request.request_id or f"{request.method} {request.key}"
        try:
            validate(request)
        except Invalid as exc:
            self.log.append((holder, 400))
            return Response(400, error=str(exc))
        try:
            lease = self.pool.acquire(holder)
        except PoolExhausted as exc:
            self.log.append((holder, 503))
            return Response(503, error=str(exc))
        try:
            response = self._dispatch(request)
        finally:
            lease.release()
        self.log.append((holder, response.status))
        return response

    def _dispatch(self, request):
        try:
            if request.method == "GET":
                return Response(200, self.storage.get(request.tenant, request.key))
            if request.method == "PUT":
                self.storage.put(request.tenant, request.key, request.body)
                return Response(201)
            self.storage.delete(request.tenant, request.key)
            return Response(204)
        except NotFound:
            return Response(404, error=f"no object {request.key}")

    def usage(self, tenant):
        """Storage used by `tenant`, read under a lease like any other storage call."""
        lease = self.pool.acquire(f"usage {tenant}")
        try:
            return self.storage.usage(tenant)
        finally:
            lease.release()

    def stats(self):
        return {
            "leases_in_use": self.pool.in_use(),
            "granted": self.pool.granted,
            "refused": self.pool.refused,
            "requests": len(self.log),
        }
