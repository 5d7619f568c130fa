"""The part of a tool's JSON Schema that constrained decoding enforces on the arguments object, and the pure helpers
it needs (integer ranges, type-correct defaults).

Enforced, for the top-level properties of `parameters` (what zod 4's `z.toJSONSchema` writes for our tools):
- `type`: string, integer, number, boolean, null, array, object. Any other shape (a list of types, `anyOf`, no type)
  means "any JSON value". For array and object only the opening bracket is enforced, not the items.
- strings: `minLength`, `maxLength`, counted in UTF-16 code units as JavaScript's `.length` (and so zod) counts them.
- integers: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`.
- `required`: the object may only close once every required key is present.
Not enforced (the harness reports a violation to the model as a bad-argument observation): `pattern`, `enum`,
`format`, bounds on `number`, anything inside nested values.

A schema no value can satisfy (minLength above maxLength, an empty integer range) is refused with ValueError, so the
server answers 400 instead of decoding a call the harness is bound to reject.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

STRING, INTEGER, NUMBER, BOOLEAN, NULL, ARRAY, OBJECT, ANY = (
    "string", "integer", "number", "boolean", "null", "array", "object", "any")
_KINDS = frozenset({STRING, INTEGER, NUMBER, BOOLEAN, NULL, ARRAY, OBJECT})
# The byte a value of each kind must start with (None: any JSON value may start here).
FIRST_BYTES: dict[str, frozenset[int] | None] = {
    STRING: frozenset(b'"'),
    INTEGER: frozenset(b"-0123456789"),
    NUMBER: frozenset(b"-0123456789"),
    BOOLEAN: frozenset(b"tf"),
    NULL: frozenset(b"n"),
    ARRAY: frozenset(b"["),
    OBJECT: frozenset(b"{"),
    ANY: None,
}
# Padding for a string shorter than its minLength when the budget forces the call closed. Not a space: patterns such
# as our `^[^\s-][^\s]*$` refuse whitespace, and `_` is one token in byte-level BPE vocabularies.
PAD = b"_"


@dataclass(frozen=True)
class ValueSpec:
    kind: str = ANY
    min_length: int = 0  # strings
    max_length: int | None = None  # strings
    minimum: int | None = None  # integers, inclusive
    maximum: int | None = None  # integers, inclusive

    def default(self) -> bytes:
        """The shortest value of this spec (JSON bytes): what a forced completion writes for a missing value."""
        if self.kind == STRING:
            return b'"' + PAD * self.min_length + b'"'
        if self.kind == INTEGER:
            return str(closest_to_zero(self.minimum, self.maximum)).encode()
        return {NUMBER: b"0", BOOLEAN: b"false", ARRAY: b"[]", OBJECT: b"{}"}.get(self.kind, b"null")


@dataclass(frozen=True)
class ArgsSpec:
    """What the arguments object of one tool may hold. Keys are the JSON string bodies as json.dumps spells them."""

    properties: tuple[tuple[bytes, ValueSpec], ...] | None  # None: any key, any value
    required: tuple[bytes, ...] = ()

    @property
    def keys(self) -> tuple[bytes, ...] | None:
        return None if self.properties is None else tuple(k for k, _ in self.properties)

    def spec(self, key: bytes) -> ValueSpec:
        for k, s in self.properties or ():
            if k == key:
                return s
        return ValueSpec()


ANY_ARGS = ArgsSpec(properties=None)


def escaped(text: str) -> bytes:
    """A JSON string's body as json.dumps writes it: the only spelling of a name or key the constraint accepts."""
    return json.dumps(text, ensure_ascii=False)[1:-1].encode()


def args_spec(parameters: object, where: str = "parameters") -> ArgsSpec:
    """The enforced part of a tool's `parameters` schema. No `properties`: any arguments object (and `required` is not
    enforced, since the keys cannot be restricted). A required key missing from `properties` is allowed with any
    value."""
    if not isinstance(parameters, dict) or not isinstance(parameters.get("properties"), dict):
        return ANY_ARGS
    props = parameters["properties"]
    required = parameters.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise ValueError(f"{where}.required: must be a list of property names")
    specs = [(escaped(name), value_spec(s, f"{where}.properties.{name}")) for name, s in props.items()]
    specs += [(escaped(r), ValueSpec()) for r in dict.fromkeys(required) if r not in props]
    return ArgsSpec(properties=tuple(specs), required=tuple(escaped(r) for r in dict.fromkeys(required)))


def value_spec(schema: object, where: str) -> ValueSpec:
    if not isinstance(schema, dict) or schema.get("type") not in _KINDS:
        return ValueSpec()
    kind = schema["type"]
    if kind == STRING:
        lo = _count(schema, "minLength", where) or 0
        hi = _count(schema, "maxLength", where)
        if hi is not None and lo > hi:
            raise ValueError(f"{where}: minLength {lo} is above maxLength {hi}, no string fits")
        return ValueSpec(STRING, min_length=lo, max_length=hi)
    if kind == INTEGER:
        lo, hi = _bound(schema, "minimum", where), _bound(schema, "maximum", where)
        ex_lo, ex_hi = _bound(schema, "exclusiveMinimum", where), _bound(schema, "exclusiveMaximum", where)
        lows = [math.ceil(lo)] if lo is not None else []
        lows += [math.floor(ex_lo) + 1] if ex_lo is not None else []
        highs = [math.floor(hi)] if hi is not None else []
        highs += [math.ceil(ex_hi) - 1] if ex_hi is not None else []
        low, high = max(lows, default=None), min(highs, default=None)
        if low is not None and high is not None and low > high:
            raise ValueError(f"{where}: no integer lies between the minimum and maximum")
        return ValueSpec(INTEGER, minimum=low, maximum=high)
    return ValueSpec(kind)


def _count(schema: dict, field: str, where: str) -> int | None:
    v = schema.get(field)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError(f"{where}.{field}: must be a non-negative integer, got {v!r}")
    return v


def _bound(schema: dict, field: str, where: str) -> float | None:
    v = schema.get(field)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"{where}.{field}: must be a finite number, got {v!r}")
    return v


# -- integers --------------------------------------------------------------------------------------------------------
# An integer literal is written digit by digit, so the constraint must know, for a prefix such as `-1` or `10`, whether
# some literal starting with it lies in [minimum, maximum], and which is the shortest. The literals extending digits
# d (d != "0": no leading zeros) have magnitudes d * 10^k + j for 0 <= j < 10^k, one block per extra digit count k.


def closest_to_zero(lo: int | None, hi: int | None) -> int:
    if lo is not None and lo > 0:
        return lo
    if hi is not None and hi < 0:
        return hi
    return 0


def _magnitudes(negative: bool, lo: int | None, hi: int | None) -> tuple[int, int | None] | None:
    """The magnitude range [mlo, mhi] (mhi None: unbounded) of the values of one sign in [lo, hi], or None if empty."""
    if negative:
        mlo, mhi = (0 if hi is None else max(-hi, 0)), (None if lo is None else -lo)
    else:
        mlo, mhi = (0 if lo is None else max(lo, 0)), hi
    return None if mhi is not None and mhi < mlo else (mlo, mhi)


def integer_completion(literal: bytes, lo: int | None, hi: int | None) -> bytes | None:
    """The shortest digits to append to an integer literal prefix (`-`, `-12`, `0`, ...) so that it is a whole literal
    in [lo, hi]; b"" if it already is one; None if no literal starting with it is in range."""
    negative = literal.startswith(b"-")
    digits = literal[1:] if negative else literal
    mags = _magnitudes(negative, lo, hi)
    if mags is None:
        return None
    mlo, mhi = mags
    if not digits:  # only the sign so far: the smallest magnitude in range has the fewest digits
        return str(mlo).encode()
    p = int(digits)
    if digits.startswith(b"0"):  # JSON allows no digit after a leading zero
        return b"" if mlo == 0 else None
    k = 0
    while mhi is None or p * 10**k <= mhi:
        start, end = p * 10**k, p * 10**k + 10**k - 1
        if end >= mlo:
            return str(max(start, mlo)).encode()[len(digits) :]
        k += 1
    return None


def integer_in_range(literal: bytes, lo: int | None, hi: int | None) -> bool:
    value = int(literal)
    return (lo is None or value >= lo) and (hi is None or value <= hi)


def utf16_units(c: int) -> int:
    """How much one byte of a JSON string body adds to the decoded string's JavaScript length: a UTF-8 lead byte of a
    4-byte character stands for a surrogate pair (2), a continuation byte for nothing, an escape's backslash for its
    one unit (the bytes after it add nothing), anything else for 1."""
    if 0x80 <= c < 0xC0:
        return 0
    return 2 if c >= 0xF0 else 1
