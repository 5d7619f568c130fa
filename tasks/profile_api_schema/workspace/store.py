"""Profile storage with a JSON cache in front, as the profile service runs it."""
import datetime as dt
import json

from profiles import profile_schema, update_schema
from vendor.minischema import ValidationError

ONLINE_WINDOW = dt.timedelta(seconds=90)


class ProfileNotFound(KeyError):
    pass


class BadUpdate(ValueError):
    def __init__(self, messages):
        super().__init__(str(messages))
        self.messages = messages


class ProfileStore:
    def __init__(self):
        self._rows = {}
        self._cache = {}

    def create(self, payload, now):
        try:
            profile = profile_schema.load(payload)
        except ValidationError as exc:
            raise BadUpdate(exc.messages) from None
        profile.setdefault("created_at", now)
        profile.setdefault("last_seen", None)
        self._rows[profile["user_id"]] = profile
        self._cache.pop(profile["user_id"], None)
        return profile

    def get(self, user_id):
        """The profile, served from the JSON cache when present (as other replicas see it)."""
        if user_id in self._cache:
            return profile_schema.load(json.loads(self._cache[user_id]))
        try:
            profile = self._rows[user_id]
        except KeyError:
            raise ProfileNotFound(user_id) from None
        self._cache[user_id] = json.dumps(profile_schema.dump(profile))
        return dict(profile)

    def update(self, user_id, payload):
        try:
            changes = update_schema.load(payload)
        except ValidationError as exc:
            raise BadUpdate(exc.messages) from None
        profile = self._rows[user_id]
        for key, value in changes.items():
            if key not in ("user_id", "created_at"):
                profile[key] = value
        self._cache.pop(user_id, None)
        return dict(profile)

    def seen(self, user_id, now):
        self._rows[user_id]["last_seen"] = now
        self._cache.pop(user_id, None)

    def is_online(self, user_id, now):
        last = self.get(user_id)["last_seen"]
        return last is not None and now - last <= ONLINE_WINDOW
