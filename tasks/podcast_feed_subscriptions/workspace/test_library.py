import pytest

from feeds import FeedError, parse_duration, parse_feed
from library import PodcastLibrary


def item(guid, day, title=None, duration="30:00"):
    return {"guid": guid, "title": title or guid.upper(), "pubDate": f"2026-03-{day:02d}", "duration": duration}


def test_durations():
    assert parse_duration("1:02:03") == 3723
    assert parse_duration("45") == 45
    with pytest.raises(FeedError):
        parse_duration("1:2:3:4")


def test_feed_is_sorted_and_deduplicated():
    eps = parse_feed("tech", [item("b", 3), item("a", 1), item("b", 3)])
    assert [e.guid for e in eps] == ["a", "b"]


def test_refresh_downloads_new_episodes_once():
    lib = PodcastLibrary()
    lib.subscribe("tech")
    assert lib.refresh("tech", [item("e1", 1), item("e2", 2)]) == ["e1", "e2"]
    assert lib.refresh("tech", [item("e1", 1), item("e3", 4)]) == ["e3"]
    assert lib.downloads.titles() == ["E1", "E2", "E3"]


def test_long_episodes_are_not_downloaded():
    lib = PodcastLibrary()
    lib.subscribe("talk", max_minutes=60)
    lib.refresh("talk", [item("short", 1), item("long", 2, duration="1:30:00")])
    assert lib.downloads.titles() == ["SHORT"]
    assert lib.subscriptions["talk"].received == ["short", "long"]


def test_unsubscribed_show_gets_no_downloads():
    lib = PodcastLibrary()
    lib.subscribe("news")
    lib.refresh("news", [item("n1", 1)])
    lib.unsubscribe("news")
    lib.refresh("news", [item("n2", 2)])
    assert lib.downloads.titles() == []
    assert lib.listeners("news") == 0


def test_paused_subscription_skips_until_resumed():
    lib = PodcastLibrary()
    sub = lib.subscribe("music")
    sub.pause()
    lib.refresh("music", [item("m1", 1)])
    sub.resume()
    lib.refresh("music", [item("m2", 2)])
    assert lib.downloads.titles() == ["M2"]
    assert lib.listeners("music") == 1


def test_resubscribing_after_unsubscribe_delivers_once():
    lib = PodcastLibrary()
    lib.subscribe("film")
    lib.unsubscribe("film")
    sub = lib.subscribe("film")
    lib.refresh("film", [item("f1", 1)])
    assert sub.received == ["f1"]
    assert lib.downloads.titles() == ["F1"]


def test_other_shows_are_unaffected():
    lib = PodcastLibrary()
    lib.subscribe("a")
    lib.subscribe("b")
    lib.refresh("a", [item("a1", 1)])
    lib.refresh("b", [item("b1", 1)])
    assert sorted(lib.downloads.titles()) == ["A1", "B1"]
