from inbox import Inbox


def test_peek_last_is_newest():
    box = Inbox()
    box.push("a")
    box.push("b")
    assert box.peek_last() == "b"


def test_empty_inbox_peeks_none():
    assert Inbox().peek_last() is None
