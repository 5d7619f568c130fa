from datetime import date
from decimal import Decimal

import pytest

from fields import DecimalField, StringField
from resources import AdminUser, AdminUserSerializer, User, UserSerializer, create_order


def test_decimal_field_travels_as_a_string():
    f = DecimalField(places=2)
    assert f.to_primitive(Decimal("3.1")) == "3.10"
    assert f.from_primitive("19.999") == Decimal("20.00")


def test_string_field_enforces_max_length():
    with pytest.raises(ValueError, match="longer than 3"):
        StringField(max_length=3).from_primitive("abcd")


def test_user_payload_has_the_public_fields():
    body = UserSerializer().dump(User(7, "ada@example.com", "Ada"))
    assert body == {"id": 7, "email": "ada@example.com", "display_name": "Ada"}


def test_admin_payload_adds_roles_to_the_user_fields():
    admin = AdminUser(1, "root@example.com", "Root", roles=["billing", "support"])
    body = AdminUserSerializer().dump(admin)
    assert body == {"id": 1, "email": "root@example.com", "display_name": "Root", "roles": ["billing", "support"]}


def test_invalid_order_reports_only_the_bad_fields():
    status, body = create_order({"id": 1, "user_id": 7, "total": "abc", "placed_on": "2024-13-01"}, {})
    assert status == 400
    assert sorted(body["errors"]) == ["placed_on", "total"], f"errors: {body['errors']}"


def test_valid_order_is_accepted_after_a_rejected_one():
    orders = {}
    status, _ = create_order({"id": 2, "user_id": 7, "total": "10", "placed_on": "yesterday"}, orders)
    assert status == 400
    status, body = create_order({"id": 3, "user_id": 7, "total": "12.5", "placed_on": "2024-05-01"}, orders)
    assert status == 201, f"second order answered {status}: {body}"
    assert body == {"id": 3, "user_id": 7, "total": "12.50", "placed_on": "2024-05-01"}
    assert orders[3].placed_on == date(2024, 5, 1)
