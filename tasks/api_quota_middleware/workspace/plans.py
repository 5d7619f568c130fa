"""API plans and the clients on them."""
from dataclasses import dataclass

PLAN_LIMITS = {
    # plan: (requests per second refilled, burst size)
    "free": (1, 5),
    "pro": (10, 50),
    "enterprise": (100, 500),
}


class UnknownClient(KeyError):
    pass


@dataclass(frozen=True)
class Client:
    client_id: str
    plan: str
    api_key: str


CLIENTS = [
    Client("c-100", "free", "key-free-a"),
    Client("c-101", "free", "key-free-b"),
    Client("c-200", "pro", "key-pro-a"),
    Client("c-201", "pro", "key-pro-b"),
]


class ClientDirectory:
    def __init__(self, clients=CLIENTS):
        self._by_key = {c.api_key: c for c in clients}

    def lookup(self, api_key):
        try:
            return self._by_key[api_key]
        except KeyError:
            raise UnknownClient(api_key) from None


def limits_for_plan(plan):
    return PLAN_LIMITS[plan]
