"""Parity filters."""


def evens(numbers):
    """The even numbers, in order."""
    return [n for n in numbers if n % 2 == 0]
