from channels import Server
from filters import find_terms, normalize, shouting, squeeze
from moderation import Moderator


def test_normalize_and_squeeze():
    assert normalize("Sc4m!") == "scam!"
    assert squeeze("sccaaam") == "scam"
    assert find_terms("what a SC@@M", {"scam"}) == ["scam"]


def test_shouting():
    assert shouting("STOP DOING THAT")
    assert not shouting("OK")


def test_clean_message_is_posted():
    server = Server()
    server.add_channel("general")
    assert server.post("general", "ann", "hello all", now=0) == "posted"


def test_strike_ladder_in_one_channel():
    server = Server()
    server.add_channel("general")
    outcomes = [server.post("general", "troll", "you idiot", now=i * 1000) for i in range(4)]
    assert outcomes == ["removed:warn", "removed:mute", "removed:mute", "removed:ban"]
    assert server.post("general", "troll", "sorry", now=10000) == "rejected:banned"


def test_links_only_where_allowed():
    server = Server()
    server.add_channel("general")
    server.add_channel("links", allow_links=True)
    assert server.post("links", "ann", "see https://example.org", now=0) == "posted"
    assert server.post("general", "ann", "see https://example.org", now=0) == "removed:warn"


def test_channel_terms_stay_in_their_channel():
    server = Server()
    server.add_channel("gaming", extra_terms={"noob"})
    server.add_channel("cooking")
    assert server.post("gaming", "bo", "noob move", now=0) == "removed:warn"
    assert server.post("cooking", "cy", "noob question about bread", now=0) == "posted"


def test_strikes_are_counted_per_channel():
    server = Server()
    server.add_channel("a")
    server.add_channel("b")
    server.post("a", "dee", "scam link", now=0)
    server.post("a", "dee", "scam again", now=100)
    assert server.post("b", "dee", "scam", now=200) == "removed:warn"


def test_fresh_moderator_knows_only_base_terms():
    Moderator("x", extra_terms={"spoiler"})
    assert Moderator("y").blocked_terms == {"scam", "idiot"}


def test_trusted_users_and_summary():
    server = Server()
    ch = server.add_channel("staff", trusted={"mod"})
    server.post("staff", "mod", "scam example for the docs", now=0)
    server.post("staff", "eve", "SCAM", now=0)
    assert ch.moderator.summary() == {"allow": 1, "warn": 1}
    assert ch.transcript() == ["mod: scam example for the docs"]


def test_slow_mode():
    server = Server()
    server.add_channel("slow", slow_mode_s=30)
    assert server.post("slow", "ann", "one", now=0) == "posted"
    assert server.post("slow", "ann", "two", now=10) == "rejected:slow"
    assert server.post("slow", "ann", "three", now=31) == "posted"


def test_accepted_appeal_resets_only_that_channel():
    from appeals import AppealDesk

    server = Server()
    server.add_channel("a")
    server.add_channel("b")
    for i in range(4):
        server.post("a", "fay", "idiot", now=i * 1000)
    server.post("b", "fay", "idiot", now=0)
    desk = AppealDesk(server)
    appeal = desk.file("a", "fay", "I was hacked")
    assert desk.decide(appeal, True, "mod", "first offence") == "accepted"
    assert server.post("a", "fay", "idiot", now=9000) == "removed:warn"
    assert server.post("b", "fay", "idiot", now=9000) == "removed:mute"
    assert desk.open_appeals() == []


def test_appeal_needs_a_sanction():
    import pytest

    from appeals import AppealDesk, AppealError

    server = Server()
    server.add_channel("a")
    with pytest.raises(AppealError):
        AppealDesk(server).file("a", "gus", "why")


def test_redact_and_ladder():
    from actions import ladder_description
    from filters import redact

    assert redact("you 1d10t, hi", {"idiot"}) == "you ****** hi"
    assert ladder_description()[1] == "strike 2: mute 60s"
