"""The incremental JSON checker against Python's own parser: every prefix of valid JSON is accepted, the prefix plus
`closing()` parses, and text that cannot start valid JSON is refused at the first bad byte."""

import json
import random

import pytest

from debugrl_native.inference.json_prefix import JsonPrefix


def random_value(rng: random.Random, depth: int = 0):
    kind = rng.choice(["obj", "arr", "str", "int", "float", "lit"] if depth < 3 else ["str", "int", "float", "lit"])
    if kind == "obj":
        return {random_text(rng): random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    if kind == "arr":
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if kind == "str":
        return random_text(rng)
    if kind == "int":
        return rng.randint(-10**6, 10**6)
    if kind == "float":
        return rng.uniform(-1e5, 1e5) * (10 ** rng.randint(-30, 30))
    return rng.choice([True, False, None])


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice('ab "\\/\n\té€😀') for _ in range(rng.randint(0, 6)))


@pytest.mark.parametrize("seed", range(40))
def test_every_prefix_of_valid_json_is_accepted_and_closes_to_valid_json(seed):
    rng = random.Random(seed)
    value = random_value(rng)
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 1])).encode()
    for cut in range(len(text) + 1):
        state = JsonPrefix().feed(text[:cut])
        assert state is not None, (text, cut)
        closed = text[:cut] + state.closing()
        assert state.feed(state.closing()).complete
        json.loads(closed.decode("utf-8", errors="replace"))  # raises if the closing is wrong
    assert JsonPrefix().feed(text).complete


@pytest.mark.parametrize(
    "bad, first_bad_index",
    [
        (b'{"a" 1}', 5),  # missing colon
        (b'{"a": 01}', 7),  # leading zero
        (b"[1,,2]", 3),
        (b'{"a": tru}', 9),
        (b'{a: 1}', 1),  # unquoted key
        (b'"tab\there"', 4),  # raw control character in a string
        (b'"\\x"', 2),  # unknown escape
        (b"[1.]", 3),
        (b'{"a": 1}}', 8),  # nothing may follow the value
        (b"{]", 1),
        (b"\xc3\xa9", 0),  # non-ASCII bytes only inside strings
        # Inside strings only well-formed UTF-8 (RFC 3629 table 3-7):
        (b'"\xb6', 1),  # a continuation byte with no lead (one byte of "ö", as a lone token)
        (b'"\xc3"', 2),  # a character cut short
        (b'"\xc0\xaf', 1),  # C0 and C1 only start overlong forms
        (b'"\xe0\x80\x80', 2),  # overlong three-byte form
        (b'"\xed\xa0\x80', 2),  # a UTF-16 surrogate
        (b'"\xf4\x90', 2),  # above U+10FFFF
        (b'"\xf5', 1),
    ],
)
def test_invalid_json_is_refused_at_the_first_bad_byte(bad, first_bad_index):
    assert JsonPrefix().feed(bad[:first_bad_index]) is not None
    assert JsonPrefix().feed(bad[: first_bad_index + 1]) is None


def test_closing_of_hand_picked_states():
    # Each case: prefix -> the exact bytes closing() appends, worked out by hand from the rules in its docstring.
    cases = {
        b'{"a": "x': b'"}',
        b'{"a": 1': b"}",
        b'{"a": -': b"0}",
        b'{"a": 1.5e': b"0}",
        b'{"a": [tr': b"ue]}",
        b'{"a"': b":null}",
        b'{"a": 1, ': b'"_":null}',
        b'{"a": "\\': b'n"}',
        b'{"a": "\\u1': b'000"}',
        b"": b"null",
        b'{"a": "\xe2': b'\xbf\xbf"}',  # U+2FFF, not the U+2000 (a space) the lowest bytes would give
        b'["\xf0': b'\xbf\xbf\xbf"]',  # the first continuation of F0 is 90..BF
    }
    for prefix, expected in cases.items():
        assert JsonPrefix().feed(prefix).closing() == expected, prefix
