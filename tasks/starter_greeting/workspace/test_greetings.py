from greetings import greet


def test_greets_ada():
    assert greet("Ada") == "Hello, Ada!"


def test_greets_bob():
    assert greet("Bob") == "Hello, Bob!"
