"""Sentence utilities."""


def reverse_words(sentence):
    """The sentence's words in reverse order, separated by single spaces."""
    words = sentence.split()
    return " ".join(words)
