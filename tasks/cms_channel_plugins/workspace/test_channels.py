import pytest

from channels import Channel, publish
from plugin_registry import UnknownPlugin

ARTICLE = "<h1>Launch day</h1><p>The new darn rocket lifts off at <b>noon</b> from pad 39A.</p>"


def test_html_is_stripped_and_whitespace_collapsed():
    web = Channel("web", [("strip_html", {})])
    assert web.render(ARTICLE) == "Launch day The new darn rocket lifts off at noon from pad 39A."


def test_sms_channel_truncates():
    sms = Channel("sms", [("strip_html", {}), ("truncate", {"max_chars": 20})])
    assert sms.render(ARTICLE) == "Launch day The new…"


def test_unknown_plugin_is_rejected():
    with pytest.raises(UnknownPlugin, match="markdown"):
        Channel("web", [("markdown", {})])


def test_each_channel_keeps_its_own_length_limit():
    web = Channel("web", [("strip_html", {}), ("truncate", {"max_chars": 2000})])
    sms = Channel("sms", [("strip_html", {}), ("truncate", {"max_chars": 20})])
    out = publish(ARTICLE, [web, sms])
    assert out["sms"] == "Launch day The new…"
    assert out["web"] == "Launch day The new darn rocket lifts off at noon from pad 39A.", f"web got {out['web']!r}"


def test_each_channel_censors_with_its_own_replacement():
    kids = Channel("kids", [("strip_html", {}), ("censor", {"words": ("darn",), "replacement": "***"})])
    forum = Channel("forum", [("strip_html", {}), ("censor", {"words": ("darn",), "replacement": "[removed]"})])
    out = publish(ARTICLE, [kids, forum])
    assert "new *** rocket" in out["kids"], f"kids got {out['kids']!r}"
    assert "new [removed] rocket" in out["forum"]
