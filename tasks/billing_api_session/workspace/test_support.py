import pytest

from client import ApiError, BillingClient, Response
from session import ApiSession
from support import goodwill_credit, open_balance

INVOICES = [
    {"id": "in_1", "total_cents": 5000, "paid": True},
    {"id": "in_2", "total_cents": 1200, "paid": False},
    {"id": "in_3", "total_cents": 800, "paid": False},
]


class FakeBillingServer:
    """Answers like the billing API; `expire_next` makes the next request fail with 401."""

    def __init__(self):
        self.issued = 0
        self.expire_next = False
        self.credits = []

    def login(self):
        self.issued += 1
        return f"tok-{self.issued}"

    def __call__(self, method, path, headers, body):
        if self.expire_next:
            self.expire_next = False
            return Response(401, {"error": "token expired"})
        if headers["Authorization"] != f"Bearer tok-{self.issued}":
            return Response(401, {"error": "bad token"})
        if method == "GET" and path == "/accounts/acme/invoices":
            return Response(200, {"invoices": INVOICES})
        if method == "GET" and path.startswith("/accounts/acme/invoices/"):
            invoice_id = path.rsplit("/", 1)[1]
            for invoice in INVOICES:
                if invoice["id"] == invoice_id:
                    return Response(200, invoice)
            return Response(404, {"error": f"no invoice {invoice_id}"})
        if method == "POST" and path == "/accounts/acme/credits":
            if body["amount_cents"] > 10_000:
                return Response(422, {"error": "credit above limit"})
            self.credits.append(body)
            return Response(201, {"credit_id": f"cr_{len(self.credits)}", **body})
        return Response(404, {"error": "no route"})


@pytest.fixture
def server():
    return FakeBillingServer()


@pytest.fixture
def client(server):
    return BillingClient(server, ApiSession(server.login))


def test_open_balance_sums_unpaid_invoices(client):
    assert open_balance(client, "acme") == 2000


def test_goodwill_credit_is_a_share_of_the_invoice(client, server):
    credit = goodwill_credit(client, "acme", "in_2", 50)
    assert credit["amount_cents"] == 600
    assert server.credits == [{"amount_cents": 600, "reason": "goodwill on in_2"}]


def test_expired_token_is_renewed_once(client, server):
    server.expire_next = True
    assert open_balance(client, "acme") == 2000
    assert client._session.logins == 2


def test_unknown_invoice_gets_no_credit(client, server):
    assert goodwill_credit(client, "acme", "in_404", 10) is None
    assert server.credits == []


def test_unknown_invoice_does_not_disturb_later_requests(client):
    goodwill_credit(client, "acme", "in_404", 10)
    assert client.invoice("in_3")["total_cents"] == 800


def test_rejected_credit_keeps_the_login(client, server):
    with pytest.raises(ApiError) as excinfo:
        client._session.use_account("acme")
        client.add_credit(20_000, "refund")
    assert excinfo.value.status == 422
    assert open_balance(client, "acme") == 2000
    assert client._session.logins == 1
