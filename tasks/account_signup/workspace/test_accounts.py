import pytest

from accounts import AccountStore, WeakPassword
from policy import PasswordPolicy
from signup import check_token, sign_up, strength
from usernames import InvalidUsername, normalize, validate

SECRET = b"test-signing-key"


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


def test_usernames():
    assert normalize(" Ｍaria ") == "maria" and validate("ana.lopez-2") == "ana.lopez-2"
    assert [strength(p) for p in ("Tangerine42Sky", "tangerine42", "abc")] == ["strong", "fair", "weak"]
    for bad in ("ab", "-ana", "ana..lopez", "Admin", "ana lopez"):
        with pytest.raises(InvalidUsername):
            validate(bad)


def test_signup_form_collects_field_errors():
    result = sign_up(AccountStore(), {"username": "root", "email": "maria@", "password": "Tangerine42Sky", "confirm": "x"}, SECRET)
    assert not result.ok and sorted(result.errors) == ["confirm", "email", "username"]
    short = sign_up(AccountStore(), {"username": "maria", "email": "m@example.com", "password": "Ab1", "confirm": "Ab1"}, SECRET)
    assert short.errors == {"password": ["must be at least 10 characters"]}


def test_signup_creates_the_account_and_a_confirmation_token():
    store = AccountStore()
    form = {"username": " Maria ", "email": "Maria@Example.com", "password": "Tangerine42Sky", "confirm": "Tangerine42Sky"}
    result = sign_up(store, form, SECRET, now=1_000_000)
    assert result.ok and result.username == "maria" and store.verify("maria", "Tangerine42Sky")
    assert check_token(SECRET, "maria", "maria@example.com", result.token, now=1_000_000 + 3600)
    assert not check_token(SECRET, "maria", "maria@example.com", result.token, now=1_000_000 + 25 * 3600)
    assert not check_token(b"other", "maria", "maria@example.com", result.token, now=1_000_000)
    assert sign_up(store, form, SECRET).errors == {"username": ["username 'maria' is taken"]}
