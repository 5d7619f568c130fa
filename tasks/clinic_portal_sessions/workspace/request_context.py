"""Per-request state for handler code: who is signed in.

Handlers run on pooled worker threads, so the state lives in a threading.local
and is bound by the middleware for the duration of one request.
"""
import threading

_local = threading.local()


def bind_user(user_id):
    _local.user_id = user_id


def current_user():
    return getattr(_local, "user_id", None)


def reset():
    _local.__dict__.clear()
