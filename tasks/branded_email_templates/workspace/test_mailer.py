import pytest

import template_loader
from addresses import InvalidAddress, parse_address, parse_recipients
from brands import BrandCatalog, UnknownBrand
from mailer import Mailer
from outgoing import encode_header, wrap_body


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
        "globex/reset.txt": "Subject: Réinitialisez votre mot de passe\nHi $name,\n\nUse this link within the hour: $link",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    catalog = BrandCatalog(tmp_path, {"acme": "ACME", "globex": "Globex Corp"}, senders={"globex": "Globex Support <help@GLOBEX.example>"})
    return Mailer(catalog, unsubscribe_base="https://mail.example/unsub")


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


def test_addresses():
    assert str(parse_address("Hank Scorpio <hank@Globex.Example>")) == "Hank Scorpio <hank@globex.example>"
    assert str(parse_address("Scorpio, Hank <hank@globex.example>")) == '"Scorpio, Hank" <hank@globex.example>'
    with pytest.raises(InvalidAddress):
        parse_address("hank at globex")
    assert [a.email for a in parse_recipients("a@x.io; B <b@X.io>;; a@x.io")] == ["a@x.io", "b@x.io"]


def test_sent_email_headers_and_body(mailer):
    email = mailer.send("globex", "reset.txt", "Hank <hank@example.com>", name="Hank", link="https://globex.example/r/" + "x" * 70)
    assert email.headers["From"] == "Globex Support <help@globex.example>"
    assert email.headers["Subject"] == encode_header("Réinitialisez votre mot de passe") and email.headers["Subject"].startswith("=?utf-8?b?")
    assert email.headers["List-Unsubscribe"] == "<https://mail.example/unsub/globex?u=hank@example.com>"
    assert email.body.split("\n")[:3] == ["Hi Hank,", "", "Use this link within the hour:"]
    assert mailer.outbox.drain() == [email] and mailer.outbox.queued == []


def test_default_sender_and_wrapping(mailer):
    email = mailer.send("acme", "welcome.txt", "wile@example.com", name="Wile E. Coyote, Super Genius, " * 3)
    assert email.headers["From"] == "ACME <no-reply@acme.example>"
    assert all(len(line) <= 72 for line in email.body.splitlines())
    assert wrap_body("a\nb\n\nc") == "a b\n\nc"
