"""Text helpers: headline casing, truncation at a word boundary, and column wrapping."""
import textwrap

SMALL_WORDS = {"a", "an", "and", "at", "for", "in", "of", "on", "or", "the", "to"}


def case_headline(text, mode):
    if mode == "upper":
        return text.upper()
    if mode == "title":
        words = text.split()
        return " ".join(w if (i and w.lower() in SMALL_WORDS) else w[:1].upper() + w[1:] for i, w in enumerate(words))
    return text[:1].upper() + text[1:]


def truncate(text, limit):
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def wrap(text, width):
    return textwrap.wrap(text, width=width, break_long_words=False)


def drop_cap(lines):
    if not lines:
        return lines
    first = lines[0]
    return [f"[{first[0]}]{first[1:]}"] + lines[1:]
