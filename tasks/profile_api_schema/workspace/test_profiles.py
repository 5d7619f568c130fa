import datetime as dt

import pytest

from profiles import profile_schema
from store import BadUpdate, ProfileStore

UTC = dt.timezone.utc
T0 = dt.datetime(2026, 11, 30, 9, 15, 42, tzinfo=UTC)


def new_store():
    store = ProfileStore()
    store.create({"userId": 7, "handle": "ana_l", "displayName": "Ana", "languages": ["pt", "en"]}, now=T0)
    return store


def test_create_applies_defaults():
    profile = new_store().get(7)
    assert profile["notifications"] == {"email": True, "push": False, "digest_hour": 8}
    assert profile["created_at"] == T0 and profile["last_seen"] is None


def test_invalid_payloads_list_every_problem():
    with pytest.raises(BadUpdate) as err:
        ProfileStore().create({"userId": "x", "handle": "a!", "extra": 1}, now=T0)
    assert sorted(err.value.messages) == ["extra", "handle", "userId"]


def test_update_is_partial_and_keeps_identity():
    store = new_store()
    updated = store.update(7, {"displayName": "Ana L.", "notifications": {"digest_hour": 20}, "userId": 99})
    assert updated["display_name"] == "Ana L." and updated["user_id"] == 7
    assert updated["notifications"]["digest_hour"] == 20
    with pytest.raises(BadUpdate):
        store.update(7, {"notifications": {"digest_hour": 25}})


def test_dump_uses_wire_names():
    wire = profile_schema.dump(new_store().get(7))
    assert sorted(wire) == ["createdAt", "displayName", "handle", "languages", "lastSeen", "notifications", "userId"]


def test_cached_profile_equals_stored_profile():
    store = new_store()
    first = store.get(7)
    assert store.get(7) == first


def test_user_is_online_right_after_activity():
    store = new_store()
    seen_at = T0 + dt.timedelta(minutes=5, seconds=15)
    store.seen(7, seen_at)
    store.get(7)
    assert store.is_online(7, seen_at + dt.timedelta(seconds=45))
    assert not store.is_online(7, seen_at + dt.timedelta(minutes=3))


def test_wire_timestamps_keep_seconds():
    wire = profile_schema.dump(new_store().get(7))
    assert profile_schema.load(wire)["created_at"] == T0
