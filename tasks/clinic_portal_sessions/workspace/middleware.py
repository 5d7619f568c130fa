"""Session cookie authentication."""
import request_context


class SessionTable:
    def __init__(self):
        self._sessions = {}

    def open(self, token, user_id):
        self._sessions[token] = user_id

    def lookup(self, cookie):
        if not cookie or not cookie.startswith("sid="):
            return None
        return self._sessions.get(cookie[len("sid="):])


def with_session(handler, sessions):
    """Wrap a handler so request_context.current_user() reports the signed-in user."""

    def wrapped(request):
        user = sessions.lookup(request.headers.get("Cookie"))
        if user is not None:
            request_context.bind_user(user)
        response = handler(request)
        request_context.reset()
        return response

    return wrapped
