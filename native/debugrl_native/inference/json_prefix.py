"""An incremental JSON checker: does this byte string start a valid JSON value, and what would close it?

Constrained decoding feeds it one candidate token at a time (`feed` returns a new checker, or None if the bytes can no
longer start valid JSON), so it must be cheap to copy: the state is a stack of open containers and one mode. It works
on bytes because byte-level BPE tokens need not be whole UTF-8 characters; bytes >= 0x80 are accepted only inside
strings, and only as well-formed UTF-8 (RFC 3629 table 3-7: no overlong forms, no surrogates, nothing above
U+10FFFF), since a token holding one stray byte of a character would otherwise decode to U+FFFD.

`closing()` returns the shortest-ish bytes that complete the value from the current state. It is what decoding falls
back to when the token budget runs out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


def replace(state: T, **changes) -> T:
    """dataclasses.replace for the checkers' frozen states, without its per-call field introspection and __init__:
    a copy of the instance dict with the changes applied. The constraint copies a state per byte it tries (accepts()
    simulates the rest of the call for every candidate token), and dataclasses.replace was ~40 % of a constrained
    step's non-forward time (benchmarks/inference.md). The states define no __post_init__ and no slots."""
    new = object.__new__(type(state))
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


WS = frozenset(b" \t\n\r")
DIGITS = frozenset(b"0123456789")
HEX = frozenset(b"0123456789abcdefABCDEF")
ESCAPES = frozenset(b'"\\/bfnrtu')
LITERALS = {ord("t"): b"rue", ord("f"): b"alse", ord("n"): b"ull"}

# Modes.
VALUE = "value"  # a value must start here (after ':' or ',' in an array, or at the very start)
OBJ_FIRST = "obj_first"  # just after '{': a key or '}'
OBJ_KEY = "obj_key"  # after ',' in an object: a key
OBJ_COLON = "obj_colon"  # after a key: ':'
ARR_FIRST = "arr_first"  # just after '[': a value or ']'
AFTER = "after"  # after a value inside a container: ',' or the closing bracket
STRING = "string"
ESCAPE = "escape"  # after a backslash in a string
UNICODE = "unicode"  # inside \\uXXXX; `pending` hex digits still to come
LITERAL = "literal"  # inside true/false/null; `pending` holds the bytes still to come
DONE = "done"  # the top-level value is complete
# Number modes: the ones in NUMBER_END may end the number, the others need more digits.
N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_EXP, N_EXP_SIGN, N_EXP_INT = (
    "n_minus", "n_zero", "n_int", "n_dot", "n_frac", "n_exp", "n_exp_sign", "n_exp_int")
NUMBER_END = frozenset({N_ZERO, N_INT, N_FRAC, N_EXP_INT})
NUMBER = NUMBER_END | {N_MINUS, N_DOT, N_EXP, N_EXP_SIGN}


@dataclass(frozen=True)
class JsonPrefix:
    stack: tuple[str, ...] = ()  # open containers, '{' or '['
    mode: str = VALUE
    is_key: bool = False  # the string being read is an object key
    pending: bytes | int = b""  # LITERAL: bytes still expected; UNICODE: hex digits still expected
    utf8_left: int = 0  # STRING: continuation bytes the current UTF-8 character still needs
    utf8_next: tuple[int, int] = (0x80, 0xBF)  # STRING: the range the next continuation byte must lie in

    @property
    def depth(self) -> int:
        return len(self.stack)

    @property
    def complete(self) -> bool:
        return self.mode == DONE or (not self.stack and self.mode in NUMBER_END)

    def feed(self, data: bytes) -> JsonPrefix | None:
        state: JsonPrefix | None = self
        for byte in data:
            state = state._step(byte)
            if state is None:
                return None
        return state

    def _value_done(self) -> JsonPrefix:
        return replace(self, mode=AFTER if self.stack else DONE, is_key=False, pending=b"")

    def _step(self, c: int) -> JsonPrefix | None:
        m = self.mode
        if m == STRING:
            if self.utf8_left or c >= 0x80:
                return self._utf8_step(c)
            if c == 0x22:  # closing quote
                return replace(self, mode=OBJ_COLON, is_key=False) if self.is_key else self._value_done()
            if c == 0x5C:
                return replace(self, mode=ESCAPE)
            return None if c < 0x20 else self  # raw control characters are not allowed in JSON strings
        if m == ESCAPE:
            if c not in ESCAPES:
                return None
            return replace(self, mode=UNICODE, pending=4) if c == ord("u") else replace(self, mode=STRING)
        if m == UNICODE:
            if c not in HEX:
                return None
            left = self.pending - 1
            return replace(self, mode=STRING, pending=b"") if left == 0 else replace(self, pending=left)
        if m == LITERAL:
            if c != self.pending[0]:
                return None
            rest = self.pending[1:]
            return self._value_done() if not rest else replace(self, pending=rest)
        if m in NUMBER:
            nxt = _number_step(m, c)
            if nxt is not None:
                return replace(self, mode=nxt)
            if m not in NUMBER_END:
                return None
            return self._value_done()._step(c)  # the byte ends the number and is read in the new state
        if c in WS:
            return self
        if m in (VALUE, ARR_FIRST):
            if m == ARR_FIRST and c == ord("]"):
                return self._close()
            return self._start_value(c)
        if m in (OBJ_FIRST, OBJ_KEY):
            if c == 0x22:
                return replace(self, mode=STRING, is_key=True)
            if m == OBJ_FIRST and c == ord("}"):
                return self._close()
            return None
        if m == OBJ_COLON:
            return replace(self, mode=VALUE) if c == ord(":") else None
        if m == AFTER:
            top = self.stack[-1]
            if c == ord(","):
                return replace(self, mode=OBJ_KEY if top == "{" else VALUE)
            if c == ord("}" if top == "{" else "]"):
                return self._close()
            return None
        return None  # DONE: nothing may follow

    def _utf8_step(self, c: int) -> JsonPrefix | None:
        if self.utf8_left:
            lo, hi = self.utf8_next
            if not lo <= c <= hi:
                return None
            return replace(self, utf8_left=self.utf8_left - 1, utf8_next=(0x80, 0xBF))
        lead = _UTF8_LEADS.get(c)
        return None if lead is None else replace(self, utf8_left=lead[0], utf8_next=lead[1])

    def _start_value(self, c: int) -> JsonPrefix | None:
        if c == ord("{"):
            return replace(self, stack=self.stack + ("{",), mode=OBJ_FIRST)
        if c == ord("["):
            return replace(self, stack=self.stack + ("[",), mode=ARR_FIRST)
        if c == 0x22:
            return replace(self, mode=STRING, is_key=False)
        if c == ord("-"):
            return replace(self, mode=N_MINUS)
        if c == ord("0"):
            return replace(self, mode=N_ZERO)
        if c in DIGITS:
            return replace(self, mode=N_INT)
        if c in LITERALS:
            return replace(self, mode=LITERAL, pending=LITERALS[c])
        return None

    def _close(self) -> JsonPrefix:
        return replace(self, stack=self.stack[:-1])._value_done()

    def closing(self) -> bytes:
        """Bytes that complete the value: close strings, finish numbers and literals, fill a missing value with null,
        and close every open container. A dangling ',' in an object gets a placeholder member `"_":null`, since JSON
        cannot take the comma back."""
        out = bytearray()
        state = self
        while not state.complete:
            fill = state.closing_step()
            nxt = state.feed(fill)
            assert nxt is not None, (state, fill)
            out += fill
            state = nxt
        return bytes(out)

    def closing_step(self) -> bytes:
        """The next few bytes of `closing()`: what this state needs to move one step nearer completion."""
        state = self
        m = state.mode
        if m == STRING and state.utf8_left:
            # Finish the character with the highest continuation bytes: U+00BF, U+0FFF, U+2FFF, ... None of these is
            # whitespace, which patterns such as `^[^\s-][^\s]*$` refuse (the lowest would give U+2000, a space).
            fill = bytes([state.utf8_next[1]]) + b"\xbf" * (state.utf8_left - 1)
        elif m == STRING:
            fill = b'"'
        elif m == ESCAPE:
            fill = b"n"
        elif m == UNICODE:
            fill = b"0" * state.pending
        elif m == LITERAL:
            fill = state.pending
        elif m in NUMBER:
            fill = b"0" if m not in NUMBER_END else (b"}" if state.stack[-1] == "{" else b"]")
        elif m == OBJ_COLON:
            fill = b":"
        elif m == VALUE:
            fill = b"null"
        elif m == OBJ_KEY:
            fill = b'"_"'
        elif m == OBJ_FIRST:
            fill = b"}"
        elif m in (ARR_FIRST, AFTER):
            fill = b"}" if state.stack[-1] == "{" else b"]"
        else:  # pragma: no cover - every mode above either completes or moves closer to completion
            raise AssertionError(m)
        return fill


def _utf8_leads() -> dict[int, tuple[int, tuple[int, int]]]:
    """Lead byte -> (continuation bytes to follow, the range of the first of them), per RFC 3629 table 3-7."""
    leads: dict[int, tuple[int, tuple[int, int]]] = {}
    for b in range(0xC2, 0xE0):
        leads[b] = (1, (0x80, 0xBF))
    for b in range(0xE0, 0xF0):
        leads[b] = (2, (0xA0, 0xBF) if b == 0xE0 else (0x80, 0x9F) if b == 0xED else (0x80, 0xBF))
    for b in range(0xF0, 0xF5):
        leads[b] = (3, (0x90, 0xBF) if b == 0xF0 else (0x80, 0x8F) if b == 0xF4 else (0x80, 0xBF))
    return leads


_UTF8_LEADS = _utf8_leads()


def _number_step(m: str, c: int) -> str | None:
    """The next number mode after byte c, or None if c cannot continue the number (RFC 8259 section 6 grammar)."""
    d = c in DIGITS
    if m == N_MINUS:
        return N_ZERO if c == ord("0") else N_INT if d else None
    if m in (N_ZERO, N_INT):
        if m == N_INT and d:
            return N_INT
        if c == ord("."):
            return N_DOT
        return N_EXP if c in b"eE" else None
    if m in (N_DOT, N_FRAC):
        if d:
            return N_FRAC
        return N_EXP if m == N_FRAC and c in b"eE" else None
    if m == N_EXP:
        return N_EXP_INT if d else N_EXP_SIGN if c in b"+-" else None
    if m in (N_EXP_SIGN, N_EXP_INT):
        return N_EXP_INT if d else None
    return None
