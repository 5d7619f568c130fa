"""API resources: users and orders, their serializers and the order-creation endpoint."""
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from fields import DateField, DecimalField, IntegerField, ListField, StringField
from serializer import Serializer


@dataclass
class User:
    id: int
    email: str
    display_name: str


@dataclass
class AdminUser(User):
    roles: list[str] = field(default_factory=list)


@dataclass
class Order:
    id: int
    user_id: int
    total: Decimal
    placed_on: date


class UserSerializer(Serializer):
    id = IntegerField(min_value=1)
    email = StringField(max_length=254)
    display_name = StringField(max_length=64)


class AdminUserSerializer(UserSerializer):
    roles = ListField(StringField(max_length=32))


class OrderSerializer(Serializer):
    id = IntegerField(min_value=1)
    user_id = IntegerField(min_value=1)
    total = DecimalField(places=2)
    placed_on = DateField()


def create_order(payload: dict, orders: dict[int, Order]) -> tuple[int, dict]:
    """POST /orders: returns (status, body)."""
    serializer = OrderSerializer()
    data = serializer.load(payload)
    if data is None:
        return 400, {"errors": serializer.errors}
    if data["id"] in orders:
        return 409, {"errors": {"id": [f"order {data['id']} already exists"]}}
    orders[data["id"]] = Order(**data)
    return 201, serializer.dump(orders[data["id"]])
