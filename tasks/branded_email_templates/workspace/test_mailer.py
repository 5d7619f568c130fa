import pytest

import template_loader
from brands import BrandCatalog, UnknownBrand
from mailer import Mailer


@pytest.fixture(autouse=True)
def fresh_template_cache():
    template_loader.clear_cache()
    yield
    template_loader.clear_cache()


@pytest.fixture
def mailer(tmp_path):
    files = {
        "default/receipt.txt": "Subject: Your $brand_name receipt\nTotal charged: $total",
        "acme/welcome.txt": "Subject: Welcome to $brand_name!\nHi $name, your anvils are on the way.",
        "globex/welcome.txt": "Subject: $name, you're in\nThe $brand_name team is glad to have you.",
        "globex/receipt.txt": "Subject: Globex payment received\nWe received $total. Thank you.",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return Mailer(BrandCatalog(tmp_path, {"acme": "ACME", "globex": "Globex Corp"}))


def test_brand_welcome_is_rendered(mailer):
    msg = mailer.render("acme", "welcome.txt", "wile@example.com", name="Wile")
    assert msg.subject == "Welcome to ACME!"
    assert msg.body == "Hi Wile, your anvils are on the way."


def test_brand_without_a_receipt_uses_the_default(mailer):
    msg = mailer.render("acme", "receipt.txt", "wile@example.com", total="$12.00")
    assert (msg.subject, msg.body) == ("Your ACME receipt", "Total charged: $12.00")


def test_unknown_brand_is_rejected(mailer):
    with pytest.raises(UnknownBrand):
        mailer.render("initech", "welcome.txt", "x@example.com", name="X")


def test_missing_field_is_an_error(mailer):
    with pytest.raises(KeyError, match="name"):
        mailer.render("acme", "welcome.txt", "wile@example.com")


def test_each_brand_sends_its_own_welcome(mailer):
    mailer.render("acme", "welcome.txt", "wile@example.com", name="Wile")
    msg = mailer.render("globex", "welcome.txt", "hank@example.com", name="Hank")
    assert msg.subject == "Hank, you're in", f"globex welcome subject: {msg.subject!r}"


def test_brand_receipt_overrides_the_default(mailer):
    mailer.render("acme", "receipt.txt", "wile@example.com", total="$5.00")
    msg = mailer.render("globex", "receipt.txt", "hank@example.com", total="$99.00")
    assert msg.subject == "Globex payment received", f"globex receipt subject: {msg.subject!r}"
