import pytest

from billing import Invoice, billing_run, reconcile
from payments import PaymentClient, PaymentFailed
from provider import CardProvider
from vendor.tenacious import RetryError, Retrying, stop_after_attempt, wait_exponential


def test_retry_library_retries_then_gives_up():
    calls = []

    def flaky():
        calls.append(1)
        raise TimeoutError("x")

    slept = []
    with pytest.raises(RetryError) as err:
        Retrying(stop=stop_after_attempt(3), wait=wait_exponential(multiplier=1), sleep=slept.append)(flaky)
    assert len(calls) == 3 and slept == [1, 2]
    assert isinstance(err.value.last_exception, TimeoutError)


def test_charge_without_trouble():
    provider = CardProvider()
    charge = PaymentClient(provider).charge("inv-1", "card-a", 1_999)
    assert charge["amount"] == 1_999 and provider.requests == 1


def test_declined_card_is_not_retried():
    provider = CardProvider(declined_cards={"card-x"})
    with pytest.raises(PaymentFailed, match="declined"):
        PaymentClient(provider).charge("inv-2", "card-x", 500)
    assert provider.requests == 1


def test_timeout_after_charge_does_not_charge_twice():
    provider = CardProvider(timeouts_after_charge=1)
    client = PaymentClient(provider)
    charge = client.charge("inv-3", "card-b", 4_000)
    assert client.last_attempts == 2
    assert provider.total_charged("card-b") == 4_000
    assert charge["id"] == provider.charges[0]["id"]


def test_provider_down_fails_the_invoice_after_all_attempts():
    provider = CardProvider(unavailable=True)
    client = PaymentClient(provider)
    with pytest.raises(PaymentFailed, match="4 attempts"):
        client.charge("inv-4", "card-c", 100)
    assert client.retry_log == [(1, 0.5), (2, 1.0), (3, 2.0)]
    assert provider.requests == 4 and provider.charges == []


def test_billing_run_reconciles_with_the_provider():
    provider = CardProvider(timeouts_after_charge=2, declined_cards={"card-z"})
    invoices = [Invoice("inv-10", "ana", "card-a", 1_000), Invoice("inv-11", "bo", "card-b", 2_000), Invoice("inv-12", "cy", "card-z", 300)]
    report = billing_run(PaymentClient(provider), invoices)
    assert report.total_cents == 3_000 and report.failed == {"inv-12": "card declined"}
    assert reconcile(provider, invoices) == []
