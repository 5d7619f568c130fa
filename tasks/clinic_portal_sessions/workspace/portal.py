"""Patient portal: a tiny request router served from a thread pool."""
import datetime
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import request_context
from middleware import SessionTable, with_session


@dataclass
class Request:
    path: str
    headers: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)


@dataclass
class Response:
    status: int
    body: object


class Unauthorized(Exception):
    pass


class PatientPortal:
    def __init__(self, workers=4):
        self.sessions = SessionTable()
        self.appointments = {}
        self._routes = {
            "/": self.home,
            "/appointments": self.list_appointments,
            "/reschedule": self.reschedule,
        }
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="portal")

    def home(self, request):
        user = request_context.current_user()
        return Response(200, f"Welcome, {user or 'guest'}")

    def list_appointments(self, request):
        user = request_context.current_user()
        if user is None:
            raise Unauthorized()
        return Response(200, sorted(self.appointments.get(user, [])))

    def reschedule(self, request):
        user = request_context.current_user()
        if user is None:
            raise Unauthorized()
        old = request.params["old"]
        new = datetime.date.fromisoformat(request.params["new"]).isoformat()
        slots = self.appointments.setdefault(user, [])
        slots.remove(old)
        slots.append(new)
        return Response(200, sorted(slots))

    def _dispatch(self, request):
        handler = self._routes.get(request.path)
        if handler is None:
            return Response(404, "not found")
        try:
            return with_session(handler, self.sessions)(request)
        except Unauthorized:
            return Response(401, "sign in first")
        except (KeyError, ValueError) as exc:
            return Response(400, f"bad request: {exc}")

    def submit(self, request):
        """Queue a request on the worker pool; returns a Future of the Response."""
        return self._pool.submit(self._dispatch, request)

    def shutdown(self):
        self._pool.shutdown(wait=True)
