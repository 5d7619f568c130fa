"""A thin client for the billing service's REST API."""
from dataclasses import dataclass, field


@dataclass
class Response:
    status: int
    body: dict = field(default_factory=dict)


class ApiError(Exception):
    def __init__(self, status, message):
        super().__init__(f"HTTP {status}: {message}")
        self.status = status


class BillingClient:
    def __init__(self, transport, session):
        """`transport(method, path, headers, body)` performs one HTTP call and returns a Response."""
        self._transport = transport
        self._session = session

    def _send(self, method, path, body=None):
        for attempt in (1, 2):
            headers = {"Authorization": f"Bearer {self._session.token}"}
            response = self._transport(method, path, headers, body)
            if response.status == 401 and attempt == 1:
                self._session.drop_token()
                continue
            if response.status >= 400:
                raise ApiError(response.status, response.body.get("error", "request failed"))
            return response.body
        raise AssertionError("unreachable")

    def _account_path(self, suffix):
        return f"/accounts/{self._session.require_account()}{suffix}"

    def list_invoices(self):
        return self._send("GET", self._account_path("/invoices"))["invoices"]

    def invoice(self, invoice_id):
        return self._send("GET", self._account_path(f"/invoices/{invoice_id}"))

    def add_credit(self, amount_cents, reason):
        if amount_cents <= 0:
            raise ValueError(f"credit must be positive, got {amount_cents}")
        body = {"amount_cents": amount_cents, "reason": reason}
        return self._send("POST", self._account_path("/credits"), body)
