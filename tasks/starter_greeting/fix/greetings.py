"""Greeting messages."""


def greet(name):
    """A greeting like 'Hello, Ada!'."""
    return "Hello, " + name + "!"
