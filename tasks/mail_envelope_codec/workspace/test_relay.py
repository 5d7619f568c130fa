import json

from envelope import Envelope
from relay import Relay


def run(tmp_path, *envelopes):
    relay = Relay(tmp_path / "spool")
    for env in envelopes:
        relay.enqueue(env)
    received = []
    return relay.deliver_all(received.append), received


def text_mail(body: bytes, content_type: str):
    return Envelope.submit("news@shop.example", ["kunde@example.de"], "Ihre Bestellung", content_type, body)


def test_utf8_text_is_delivered_unchanged(tmp_path):
    env = text_mail("Grüße aus Köln – 20 €".encode("utf-8"), "text/plain; charset=utf-8")
    outcome, received = run(tmp_path, env)
    assert outcome == {"delivered": 1, "quarantined": []}
    assert received[0].body == env.body


def test_binary_attachment_is_delivered_unchanged(tmp_path):
    pdf = b"%PDF-1.7\n\x00\xff\xfe binary \x80\x81"
    env = Envelope.submit("billing@shop.example", ["a@example.org"], "Invoice", "application/pdf", pdf)
    outcome, received = run(tmp_path, env)
    assert outcome["delivered"] == 1 and received[0].body == pdf


def test_spooled_text_is_readable(tmp_path):
    relay = Relay(tmp_path / "spool")
    path = relay.enqueue(text_mail("Hallo Welt".encode("utf-8"), "text/plain"))
    assert json.loads(path.read_text(encoding="utf-8"))["text"] == "Hallo Welt"


def test_damaged_spool_file_is_quarantined(tmp_path):
    relay = Relay(tmp_path / "spool")
    path = relay.enqueue(text_mail(b"original", "text/plain"))
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["text"] = "tampered"
    path.write_text(json.dumps(doc), encoding="utf-8")
    outcome = relay.deliver_all(lambda env: None)
    assert outcome == {"delivered": 0, "quarantined": [path.name]}


def test_latin1_newsletter_is_delivered(tmp_path):
    env = text_mail("Grüße, Ihr Team - Straße 5".encode("iso-8859-1"), "text/plain; charset=ISO-8859-1")
    outcome, received = run(tmp_path, env)
    assert outcome == {"delivered": 1, "quarantined": []}
    assert received[0].body == env.body


def test_mislabelled_text_is_passed_through_byte_for_byte(tmp_path):
    body = "Grüße aus Köln".encode("iso-8859-1")   # the sender claims UTF-8, but these are Latin-1 bytes
    env = text_mail(body, 'text/plain; charset="utf-8"; format=flowed')
    outcome, received = run(tmp_path, env)
    assert outcome == {"delivered": 1, "quarantined": []}
    assert received[0].body == body
