"""Constrained decoding for `tool_choice: "required"`: every reply is one well-formed call of one of the given tools,
with arguments that fit the tool's schema.

The reply is driven through a byte-level state machine over the exact text layout of tool_format.py:

    <tool_call>\\n{"name": "   PREFIX  forced: these tokens are appended without sampling
    read_file", "arguments":   NAME    a token is allowed iff the name bytes so far plus its bytes are a prefix of
                                       `<tool name>", "arguments":` for some given tool (a lookup over the prefixes of
                                       the few remaining targets, i.e. a trie walk over the vocabulary)
     {"path": "a.py"}}         ARGS    a token is allowed iff the incremental JSON checker (json_prefix.py) accepts its
                                       bytes, with extra rules: the value of "arguments" must be an object; the
                                       call object must close right after it (no other keys); at most MAX_WS_RUN
                                       whitespace bytes in a row outside strings; the arguments schema (below)
    \\n</tool_call>            SUFFIX  forced once the call object has closed
    <|im_end|>                 EOS     forced

Budget. `finish_ids()` is the token sequence that completes the call from the current state: the tool whose shortest
call is shortest, then the arguments closed as json_prefix.closing() would, except that missing required arguments
are filled with a type-correct default (arg_schema.ValueSpec.default: `""`, or `"_"` repeated up to minLength; `0`
or the integer bound nearest zero; `false`; ...), then the suffix and EOS. A candidate token is only allowed if, after it, that completion still fits in the tokens
left; when no candidate is allowed the completion is forced. So a reply never runs past max_tokens and never stops
half way; a request whose max_tokens cannot fit even the shortest call is refused up front (`min_tokens()`).

Arguments schema (arg_schema.py says which parts of JSON Schema are enforced). When a tool's `parameters` declares
`properties`, on the top level of the arguments object:
- keys are restricted to those names, each at most once, spelled exactly as json.dumps spells them; a `,` is only
  allowed while an unused name remains. A tool with `"properties": {}` can only be called with `{}`;
- each value must start as its declared type (a string value with `"`, an integer with `-` or a digit, ...); a string
  may only close once it has minLength units and never grows past maxLength; an integer may not take a `.` or an
  exponent, and each digit must keep some literal within [minimum, maximum] reachable (arg_schema.integer_completion);
- the object may only close once every `required` key is present (in any order).
Inside a key the candidate tokens are listed (`allowed_ids`), as for the tool name, so the model picks among all of
them rather than among the few it happens to rank high.
Without a `properties` entry any key and any value is allowed. Nested values are only checked to be valid JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .arg_schema import (
    ANY_ARGS,
    FIRST_BYTES,
    INTEGER,
    PAD,
    ArgsSpec,
    ValueSpec,
    escaped,
    integer_completion,
    integer_in_range,
    utf16_units,
)
from .arg_schema import STRING as STRING_KIND
from .json_prefix import (
    AFTER,
    DIGITS,
    DONE,
    ESCAPE,
    NUMBER,
    NUMBER_END,
    OBJ_COLON,
    OBJ_FIRST,
    OBJ_KEY,
    STRING,
    UNICODE,
    VALUE,
    WS,
    JsonPrefix,
    replace,
)
from .tool_format import ARGUMENTS_KEY, CALL_PREFIX, CALL_SUFFIX
from .vocab import Vocab

PREFIX, NAME, ARGS, EOS, FINISHED = "prefix", "name", "args", "eos", "finished"
_PREFIX_B = CALL_PREFIX.encode()
_SUFFIX_B = CALL_SUFFIX.encode()
_IN_STRING = (STRING, ESCAPE, UNICODE)
# JSON allows any amount of whitespace between tokens, and a weak model will happily spend its whole budget on it
# (a random model does). 16 bytes still allow a newline plus indentation three or four levels deep.
MAX_WS_RUN = 16


@dataclass(frozen=True)
class CallState:
    """Where the reply is in the layout above; immutable so that testing a candidate is a cheap `feed` on a copy.
    Build the first one with `CallState.start`."""

    targets: tuple[bytes, ...]  # `<escaped name>", "arguments":` per tool
    specs: tuple[ArgsSpec, ...] = ()  # per target: what its arguments object may hold
    finishes: tuple[bytes, ...] = ()  # per target: the shortest call's bytes from the name on (before EOS)
    phase: str = PREFIX
    pos: int = 0  # PREFIX: bytes of CALL_PREFIX written; ARGS after the call object closed: bytes of CALL_SUFFIX
    name: bytes = b""  # NAME: bytes written so far
    json: JsonPrefix | None = None  # ARGS: the call object `{"name": ..., "arguments": ...}` so far
    ws_run: int = 0  # ARGS: whitespace bytes in a row outside strings
    args: ArgsSpec = ANY_ARGS  # ARGS: the chosen tool's arguments schema
    used: frozenset[bytes] = frozenset()  # ARGS: argument keys already written
    key: bytes = b""  # ARGS: the bytes of the argument key being written, then of the last key written
    literal: bytes = b""  # ARGS: an integer argument's literal so far
    units: int = 0  # ARGS: a string argument's length so far, in UTF-16 units (see arg_schema.utf16_units)

    @classmethod
    def start(cls, targets: tuple[bytes, ...], specs: tuple[ArgsSpec, ...]) -> CallState:
        state = cls(targets=targets, specs=specs)
        named = replace(state, phase=NAME)
        finishes = tuple(t + named.feed(t).finish_bytes() for t in targets)
        return replace(state, finishes=finishes)

    def feed(self, data: bytes) -> CallState | None:
        state: CallState | None = self
        for c in data:
            state = state._step(c)
            if state is None:
                return None
        return state

    def _step(self, c: int) -> CallState | None:
        if self.phase == PREFIX:
            if c != _PREFIX_B[self.pos]:
                return None
            pos = self.pos + 1
            return replace(self, phase=NAME, pos=0) if pos == len(_PREFIX_B) else replace(self, pos=pos)
        if self.phase == NAME:
            name = self.name + bytes([c])
            if name in self.targets:
                opened = JsonPrefix().feed(b'{"name": "' + name)
                assert opened is not None and opened.mode == VALUE and opened.depth == 1
                args = self.specs[self.targets.index(name)] if self.specs else ANY_ARGS
                return replace(self, phase=ARGS, name=name, json=opened, args=args)
            return replace(self, name=name) if any(t.startswith(name) for t in self.targets) else None
        if self.phase == ARGS:
            js = self.json
            if js.mode == DONE:  # the call object is closed: only the suffix may follow
                if c != _SUFFIX_B[self.pos]:
                    return None
                pos = self.pos + 1
                return replace(self, phase=EOS, pos=pos) if pos == len(_SUFFIX_B) else replace(self, pos=pos)
            if js.depth == 1 and js.mode == VALUE and not (c in WS or c == ord("{")):
                return None  # "arguments" must be an object
            if js.depth == 1 and js.mode == AFTER and not (c in WS or c == ord("}")):
                return None  # nothing after "arguments" but the closing brace
            in_string = js.mode in _IN_STRING
            ws_run = self.ws_run + 1 if (c in WS and not in_string) else 0
            if ws_run > MAX_WS_RUN:
                return None
            nxt = js._step(c)
            if nxt is None:
                return None
            state = replace(self, json=nxt, ws_run=ws_run)
            return state._schema_step(c, js, nxt) if js.depth == 2 and self.args.keys is not None else state
        return None  # EOS and FINISHED take no bytes

    def _schema_step(self, c: int, js: JsonPrefix, nxt: JsonPrefix) -> CallState | None:
        """The schema's rules for byte c on the top level of the arguments object (js before it, nxt after it); self
        already holds nxt."""
        key, used, literal, units = self.key, self.used, self.literal, self.units
        in_string = js.mode in _IN_STRING
        if in_string and js.is_key:
            if js.mode == STRING and c == 0x22:  # the key ends: it must be a whole, unused name
                if key not in self.args.keys or key in used:
                    return None
                used = used | {key}
            else:
                key = key + bytes([c])
                if not any(k.startswith(key) for k in self._unused()):
                    return None
        elif js.mode in (OBJ_FIRST, OBJ_KEY) and c == 0x22:
            if not self._unused():
                return None
            key = b""
        else:
            spec = self.args.spec(key)
            if js.mode == VALUE and c not in WS:  # the value starts: its first byte says its type
                first = FIRST_BYTES[spec.kind]
                if first is not None and c not in first:
                    return None
                literal, units = bytes([c]), 0
                if spec.kind == INTEGER and integer_completion(literal, spec.minimum, spec.maximum) is None:
                    return None
            elif spec.kind == INTEGER and js.mode in NUMBER:
                if nxt.mode in NUMBER:  # the literal goes on: only digits, and a literal in range stays reachable
                    literal += bytes([c])
                    if c not in DIGITS or integer_completion(literal, spec.minimum, spec.maximum) is None:
                        return None
                elif not integer_in_range(literal, spec.minimum, spec.maximum):  # c ends the literal
                    return None
            elif spec.kind == STRING_KIND and js.mode == STRING:
                if c == 0x22:
                    if units < spec.min_length:
                        return None
                else:
                    units += utf16_units(c)
                    if spec.max_length is not None and units > spec.max_length:
                        return None
        if c == ord(",") and not in_string and not self._unused(used):
            return None  # a separator needs a key left to follow it
        if nxt.depth == 1 and not set(self.args.required) <= used:
            return None  # the arguments object closes: every required key must be there
        return replace(self, key=key, used=used, literal=literal, units=units)

    def finish_bytes(self) -> bytes:
        """The bytes (before EOS) that complete the call from here."""
        if self.phase == PREFIX:
            return _PREFIX_B[self.pos :] + min(self.finishes, key=len)
        if self.phase == NAME:
            rest = min((f for t, f in zip(self.targets, self.finishes) if t.startswith(self.name)), key=len)
            return rest[len(self.name) :]
        if self.phase == ARGS:
            out, state = b"", self
            while state.phase == ARGS:
                fill = state._finish_step()
                nxt = state.feed(fill)
                assert nxt is not None, (state, fill)
                out, state = out + fill, nxt
            return out
        return b""

    def in_key(self) -> bool:
        """Inside a key of a schema-restricted arguments object (bytes so far in `key`)."""
        js = self.json
        return (self.phase == ARGS and js.depth == 2 and self.args.keys is not None and js.mode in _IN_STRING
                and js.is_key)

    def _unused(self, used: frozenset[bytes] | None = None) -> list[bytes]:
        used = self.used if used is None else used
        return [k for k in self.args.keys if k not in used]

    def _missing(self) -> list[bytes]:
        return [k for k in self.args.required if k not in self.used]

    def _next_key(self, prefix: bytes = b"") -> bytes:
        """The key a completion writes: the first missing required one (in `required` order) if it can, else the one
        with the shortest member."""
        missing = [k for k in self._missing() if k.startswith(prefix)]
        if missing:
            return missing[0]
        keys = [k for k in self._unused() if k.startswith(prefix)]
        return min(keys, key=lambda k: len(k) + len(self.args.spec(k).default()))

    def _finish_step(self) -> bytes:
        """The next bytes towards a complete call: json_prefix's closing, except where the rules above differ."""
        js = self.json
        if js.mode == DONE:
            return _SUFFIX_B[self.pos :]
        if js.depth == 1 and js.mode == VALUE:
            return b"{" if self.ws_run else b" {"  # spaced as json.dumps spaces it, unless the model put a space
        if js.depth != 2 or self.args.keys is None:
            return js.closing_step()
        if js.mode in _IN_STRING and js.is_key:
            return self._next_key(self.key)[len(self.key) :] + b'"'
        if js.mode == OBJ_KEY or (js.mode == OBJ_FIRST and self._missing()):
            return b'"' + self._next_key() + b'"'
        spec: ValueSpec = self.args.spec(self.key)
        if js.mode == OBJ_COLON:
            return b": "  # spaced as json.dumps spaces it (the colon resets the whitespace run)
        if js.mode == VALUE:
            return spec.default()
        if js.mode == STRING and not js.is_key and not js.utf8_left:
            return PAD * max(0, spec.min_length - self.units) + b'"'
        if js.mode in NUMBER and spec.kind == INTEGER:
            rest = integer_completion(self.literal, spec.minimum, spec.maximum)
            if rest:  # digits that bring the literal into range (b"": it already is)
                return rest
        if js.mode == AFTER or js.mode in NUMBER_END:
            # After a complete value: the next missing required member, or the end of the object. Either byte also
            # ends a number that is still open.
            return b", " if self._missing() else b"}"
        return js.closing_step()


class ToolCallConstraint:
    """Drives one constrained reply. The engine asks, at each step: is there a forced run of tokens (`forced_run`)?
    if not, which tokens are allowed (`allowed_ids` when the set is small and explicit, else the `accepts` test)?
    and then reports what it appended (`advance`)."""

    def __init__(self, vocab: Vocab, encode: Callable[[str], list[int]], tools: dict[str, ArgsSpec], eos_id: int):
        """tools: tool name -> what its arguments may hold (arg_schema.args_spec of its `parameters`)."""
        if not tools:
            raise ValueError("a constrained tool call needs at least one tool")
        self.vocab, self.encode, self.eos_id = vocab, encode, eos_id
        targets = tuple(escaped(n) + ARGUMENTS_KEY.encode() for n in tools)
        self.start = CallState.start(targets, tuple(tools.values()))
        self.state = self.start

    @property
    def done(self) -> bool:
        return self.state.phase == FINISHED

    def _ids(self, data: bytes) -> list[int]:
        try:
            return self.encode(data.decode("utf-8")) if data else []
        except UnicodeDecodeError:  # starts or ends inside a character: spell it byte by byte (byte-level BPE can)
            return [self.vocab.by_bytes[bytes([b])][0] for b in data]

    def finish_ids(self, state: CallState | None = None) -> list[int]:
        state = state or self.state
        if state.phase == FINISHED:
            return []
        return self._ids(state.finish_bytes()) + [self.eos_id]

    def min_tokens(self) -> int:
        """Tokens the shortest complete call takes; max_tokens below this cannot be honoured."""
        return len(self.finish_ids(self.start))

    def forced_run(self) -> list[int]:
        """Tokens that must come next whatever the model prefers: the prefix at the start, the suffix after the call
        object has closed, and EOS. Empty when the model has a choice."""
        s = self.state
        if s.phase == PREFIX or s.phase == EOS or (s.phase == ARGS and s.json.mode == DONE):
            return self.finish_ids() if s.phase != PREFIX else self._ids(_PREFIX_B[s.pos :])
        return []

    def _after(self, token_id: int) -> CallState | None:
        if token_id == self.eos_id:
            return replace(self.state, phase=FINISHED) if self.state.phase == EOS else None
        data = self.vocab.token_bytes[token_id]
        return None if not data else self.state.feed(data)

    def accepts(self, token_id: int, tokens_left: int) -> bool:
        """Valid next token, and the call can still be completed within the tokens left after it."""
        after = self._after(token_id)
        if after is None:
            return False
        if after.phase == FINISHED:
            return True
        # Every token is at least one byte, so the byte count bounds the token count: tokenise only when it is tight.
        rest = after.finish_bytes()
        return len(rest) + 1 <= tokens_left - 1 or len(self._ids(rest)) + 1 <= tokens_left - 1

    def allowed_ids(self) -> list[int] | None:
        """The candidates where they are few and can be listed: in NAME, the token ids spelling a non-empty prefix of
        what is left of some target; inside an argument key, those spelling a prefix of what is left of some unused
        key, or all of it, the closing quote and whatever follows (`":`, `": "`, ...). Elsewhere None (too many
        candidates to list; test them with `accepts`). Listing the key's tokens matters: a key has one spelling, its
        next piece is often not among the SCAN_CANDIDATES tokens the model likes most, and then the sampler would
        give up and the completion would write the rest of the call, value included, for the model."""
        s = self.state
        if s.phase == NAME:
            rests = [t[len(s.name) :] for t in s.targets if t.startswith(s.name)]
            closed: list[bytes] = []
        elif s.phase == ARGS and s.in_key():
            rests = [k[len(s.key) :] for k in s._unused() if k.startswith(s.key)]
            closed = [r + b'"' for r in rests]
        else:
            return None
        ids: set[int] = set()
        for rest in rests:
            for n in range(1, len(rest) + 1):
                ids.update(self.vocab.by_bytes.get(rest[:n], ()))
        for whole in closed:
            ids.update(i for i in self.vocab.by_first_byte[whole[0]] if self.vocab.token_bytes[i].startswith(whole))
        return sorted(ids)

    def advance(self, token_id: int) -> None:
        after = self._after(token_id)
        if after is None:
            raise ValueError(f"token {token_id} breaks the tool call in phase {self.state.phase}")
        self.state = after

