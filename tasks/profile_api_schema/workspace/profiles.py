"""The profile API's wire format."""
from vendor.minischema import Boolean, DateTime, Integer, List, Nested, Schema, String

STAMP = "%Y-%m-%dT%H:%MZ"


def _handle(value):
    return 3 <= len(value) <= 30 and value.replace("_", "").isalnum()


class NotificationSchema(Schema):
    email = Boolean(load_default=True)
    push = Boolean(load_default=False)
    digest_hour = Integer(load_default=8, validate=lambda h: 0 <= h <= 23)


class ProfileSchema(Schema):
    user_id = Integer(required=True, data_key="userId")
    handle = String(required=True, validate=_handle)
    display_name = String(data_key="displayName", load_default="")
    languages = List(String(), load_default=list)
    notifications = Nested(NotificationSchema(), load_default=lambda: NotificationSchema().load({}))
    created_at = DateTime(format=STAMP, data_key="createdAt")
    last_seen = DateTime(format=STAMP, data_key="lastSeen", allow_none=True)


class ProfileUpdateSchema(ProfileSchema):
    pass


profile_schema = ProfileSchema()
update_schema = ProfileUpdateSchema(partial=True)
