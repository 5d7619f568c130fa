import pytest

from audience import Subscriber
from digest import body_for, render_all, subject_for
from vendor.minitemplate import Template, TemplateError

HIGHLIGHTS = [{"title": "Loft in Porto", "price": 189_000_00}, {"title": "Cottage", "price": 95_500_00}]


def test_template_language():
    t = Template("{% for x in xs %}{{ x|upper }}{% endfor %}{% if not y %}!{% else %}?{% endif %}")
    assert t.render({"xs": ["a", "b"], "y": 0}) == "AB!"
    with pytest.raises(TemplateError):
        Template("{% if x %}open")
    context = {"xs": ["a"]}
    t.render(context)
    assert context == {"xs": ["a"]}


def test_single_subscriber_mail():
    ana = Subscriber("ana@example.com", "Ana", saved_searches=["porto 2br"], coupon="spring10", unread=3)
    assert subject_for(ana) == "Ana, 3 new listings + a coupon"
    body = body_for(ana, HIGHLIGHTS)
    assert "Your searches: porto 2br" in body and "Your coupon: SPRING10" in body
    assert "- Loft in Porto (189000.00 EUR)" in body
    assert body.endswith("unsubscribe: https://homely.example/u/ana@example.com\n")


def test_paused_subscribers_get_nothing():
    mails = render_all([Subscriber("a@example.com", paused=True), Subscriber("b@example.com")], [])
    assert [m[0] for m in mails] == ["b@example.com"]


def test_second_subscriber_does_not_get_the_first_ones_coupon():
    mails = render_all([Subscriber("ana@example.com", "Ana", coupon="spring10", unread=1), Subscriber("bo@example.com", "Bo", unread=2)], HIGHLIGHTS)
    _, subject, body = mails[1]
    assert subject == "Bo, 2 new listings"
    assert "coupon" not in body.lower()


def test_saved_searches_are_personal():
    mails = render_all([Subscriber("ana@example.com", saved_searches=["faro"]), Subscriber("cy@example.com")], HIGHLIGHTS)
    assert "Save a search to get matches here." in mails[1][2]


def test_greeting_of_a_subscriber_without_a_name():
    mails = render_all([Subscriber("ana@example.com", "Ana", coupon="w10"), Subscriber("dee@example.com", unread=1)], [])
    assert mails[1][1] == "Hi, 1 new listing"


def test_mails_are_batched_by_send_hour():
    from sending import ProviderOutbox, schedule

    subs = [Subscriber(f"u{i}@example.com", locale="de" if i % 3 == 0 else "en") for i in range(7)]
    outbox = ProviderOutbox()
    assert schedule(subs, render_all(subs, []), outbox, size=2) == {7: 3, 8: 4}
    assert [(hour, len(batch)) for hour, batch in outbox.batches] == [(7, 2), (7, 1), (8, 2), (8, 2)]
