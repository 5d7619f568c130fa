import pytest

from accounts import AccountStore, WeakPassword
from policy import PasswordPolicy


def test_strong_password_registers_and_verifies():
    store = AccountStore()
    store.register("maria", "Tangerine42Sky")
    assert store.verify("maria", "Tangerine42Sky")
    assert not store.verify("maria", "tangerine42sky")
    assert b"Tangerine42Sky" not in b"".join(store.stored_record("maria"))


def test_short_password_is_refused():
    with pytest.raises(WeakPassword, match="at least 10"):
        AccountStore().register("maria", "Ab1")


def test_password_without_digit_is_refused():
    reasons = PasswordPolicy().problems("TangerineSky")
    assert reasons == ["must contain lowercase, uppercase, digit"], reasons


def test_password_without_uppercase_is_refused():
    with pytest.raises(WeakPassword):
        AccountStore().register("maria", "tangerine42sky")


def test_username_inside_password_is_refused():
    assert PasswordPolicy().problems("xxMaria2024xx", username="maria") == ["must not contain the username"]


def test_policy_can_require_symbols():
    policy = PasswordPolicy(required_classes=("lowercase", "symbol"))
    assert policy.problems("quiet river!") == []
    assert policy.problems("quietriverbank") == ["must contain lowercase, symbol"]
