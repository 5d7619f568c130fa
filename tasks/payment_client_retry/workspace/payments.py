"""Charging customers through the card provider, retrying timeouts."""
import uuid

from provider import CardDeclined, ProviderTimeout
from vendor.tenacious import RetryError, retry, retry_if_exception_type, stop_after_attempt, wait_exponential

ATTEMPTS = 4


class PaymentFailed(Exception):
    def __init__(self, invoice_id, reason):
        super().__init__(f"invoice {invoice_id}: {reason}")
        self.invoice_id = invoice_id
        self.reason = reason


def new_key(invoice_id):
    return f"{invoice_id}:{uuid.uuid4().hex}"


class PaymentClient:
    def __init__(self, provider, sleep=lambda seconds: None):
        self.provider = provider
        self.retry_log = []
        self._charge = retry(
            stop=stop_after_attempt(ATTEMPTS),
            wait=wait_exponential(multiplier=0.5, max=8),
            retry=retry_if_exception_type(ProviderTimeout),
            before_sleep=lambda state, delay: self.retry_log.append((state.attempt_number, delay)),
            sleep=sleep,
        )(self._attempt)

    def _attempt(self, invoice_id, card, amount_cents):
        return self.provider.charge(card, amount_cents, new_key(invoice_id))

    def charge(self, invoice_id, card, amount_cents):
        if amount_cents <= 0:
            raise PaymentFailed(invoice_id, "amount must be positive")
        try:
            return self._charge(invoice_id, card, amount_cents)
        except CardDeclined:
            raise PaymentFailed(invoice_id, "card declined") from None
        except RetryError as exc:
            raise PaymentFailed(invoice_id, f"provider unavailable ({exc.state.attempt_number} attempts)") from None

    @property
    def last_attempts(self):
        return self._charge.retrying.statistics.get("attempt_number", 0)
