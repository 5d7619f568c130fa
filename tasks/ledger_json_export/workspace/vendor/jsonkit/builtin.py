"""Encoders for standard-library types, registered on the default codec."""
import datetime as dt
import uuid

from .codec import Codec


def _date(text):
    return dt.date.fromisoformat(text)


def _datetime(text):
    return dt.datetime.fromisoformat(text)


def default_codec():
    """A new codec that knows dates, datetimes, UUIDs, sets and tuples."""
    codec = Codec()
    codec.register(dt.datetime, "datetime", lambda v: v.isoformat(), _datetime)
    codec.register(dt.date, "date", lambda v: v.isoformat(), _date)
    codec.register(uuid.UUID, "uuid", str, uuid.UUID)
    codec.register(set, "set", lambda v: sorted(v, key=repr), set)
    codec.register(frozenset, "frozenset", lambda v: sorted(v, key=repr), frozenset)
    return codec
