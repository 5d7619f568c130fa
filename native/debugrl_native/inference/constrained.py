"""Constrained decoding for `tool_choice: "required"`: every reply is one well-formed call of one of the given tools.

The reply is driven through a byte-level state machine over the exact text layout of tool_format.py:

    <tool_call>\\n{"name": "   PREFIX  forced: these tokens are appended without sampling
    read_file", "arguments":   NAME    a token is allowed iff the name bytes so far plus its bytes are a prefix of
                                       `<tool name>", "arguments":` for some given tool (a lookup over the prefixes of
                                       the few remaining targets, i.e. a trie walk over the vocabulary)
     {"path": "a.py"}}         ARGS    a token is allowed iff the incremental JSON checker (json_prefix.py) accepts its
                                       bytes, with extra rules: the value of "arguments" must be an object; the
                                       call object must close right after it (no other keys); at most MAX_WS_RUN
                                       whitespace bytes in a row outside strings; argument keys (below)
    \\n</tool_call>            SUFFIX  forced once the call object has closed
    <|im_end|>                 EOS     forced

Budget. `finish_ids()` is the token sequence that completes the call from the current state (the shortest tool name,
empty arguments `{}`, JSON closing from json_prefix.closing(), the suffix, EOS). A candidate token is only allowed if,
after it, that completion still fits in the tokens left; when no candidate is allowed the completion is forced. So a
reply never runs past max_tokens and never stops half way; a request whose max_tokens cannot fit even the shortest
call is refused up front (`min_tokens()`).

Argument keys. When a tool's `parameters` declares `properties`, the keys of the arguments object (its top level
only) are restricted to those names, each at most once, spelled exactly as json.dumps spells them; a `,` is only
allowed while an unused name remains. A tool with `"properties": {}` can only be called with `{}`. Without a
`properties` entry any key is allowed. Not constrained: value types, nested objects, and `required` (a call may omit a
required argument; the harness reports that to the model as a bad-argument observation, a learning signal).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Callable

from .json_prefix import AFTER, DONE, ESCAPE, OBJ_FIRST, OBJ_KEY, STRING, UNICODE, VALUE, WS, JsonPrefix
from .tool_format import ARGUMENTS_KEY, CALL_PREFIX, CALL_SUFFIX
from .vocab import Vocab

PREFIX, NAME, ARGS, EOS, FINISHED = "prefix", "name", "args", "eos", "finished"
_PREFIX_B = CALL_PREFIX.encode()
_SUFFIX_B = CALL_SUFFIX.encode()
_EMPTY_ARGS = b" {}}"  # the arguments object and the call object's closing brace
# JSON allows any amount of whitespace between tokens, and a weak model will happily spend its whole budget on it
# (a random model does). 16 bytes still allow a newline plus indentation three or four levels deep.
MAX_WS_RUN = 16


@dataclass(frozen=True)
class CallState:
    """Where the reply is in the layout above; immutable so that testing a candidate is a cheap `feed` on a copy."""

    targets: tuple[bytes, ...]  # `<escaped name>", "arguments":` per tool
    tool_keys: tuple[tuple[bytes, ...] | None, ...] = ()  # per target: the allowed argument keys (None: any)
    phase: str = PREFIX
    pos: int = 0  # PREFIX: bytes of CALL_PREFIX written; ARGS after the call object closed: bytes of CALL_SUFFIX
    name: bytes = b""  # NAME: bytes written so far
    json: JsonPrefix | None = None  # ARGS: the call object `{"name": ..., "arguments": ...}` so far
    ws_run: int = 0  # ARGS: whitespace bytes in a row outside strings
    keys: tuple[bytes, ...] | None = None  # ARGS: the chosen tool's allowed argument keys (None: any)
    used: frozenset[bytes] = frozenset()  # ARGS: argument keys already written
    key: bytes = b""  # ARGS: the bytes of the argument key being written

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
                keys = self.tool_keys[self.targets.index(name)] if self.tool_keys else None
                return replace(self, phase=ARGS, name=name, json=opened, keys=keys)
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
            in_string = js.mode in (STRING, ESCAPE, UNICODE)
            ws_run = self.ws_run + 1 if (c in WS and not in_string) else 0
            if ws_run > MAX_WS_RUN:
                return None
            key, used = self.key, self.used
            if self.keys is not None and js.depth == 2:  # the arguments object's own keys
                if in_string and js.is_key:
                    if js.mode == STRING and c == 0x22:  # the key ends: it must be a whole, unused name
                        if key not in self.keys or key in used:
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
                elif js.mode == AFTER and c == ord(",") and len(self._unused()) == 0:
                    return None
            nxt = js._step(c)
            return None if nxt is None else replace(self, json=nxt, ws_run=ws_run, key=key, used=used)
        return None  # EOS and FINISHED take no bytes

    def finish_bytes(self) -> bytes:
        """The bytes (before EOS) that complete the call from here."""
        if self.phase == PREFIX:
            return _PREFIX_B[self.pos :] + min(self.targets, key=len) + _EMPTY_ARGS + _SUFFIX_B
        if self.phase == NAME:
            rest = min((t for t in self.targets if t.startswith(self.name)), key=len)[len(self.name) :]
            return rest + _EMPTY_ARGS + _SUFFIX_B
        if self.phase == ARGS:
            out, state = b"", self
            while state.phase == ARGS:
                fill = state._finish_step()
                nxt = state.feed(fill)
                assert nxt is not None, (state, fill)
                out, state = out + fill, nxt
            return out
        return b""

    def _unused(self) -> list[bytes]:
        return [k for k in self.keys if k not in self.used]

    def _finish_step(self) -> bytes:
        """The next bytes towards a complete call: json_prefix's closing, except where the rules above differ."""
        js = self.json
        if js.mode == DONE:
            return _SUFFIX_B[self.pos :]
        if js.depth == 1 and js.mode == VALUE:
            return _EMPTY_ARGS.lstrip()  # no space: the whitespace run may be at its limit
        if self.keys is not None and js.depth == 2:
            if js.is_key and js.mode in (STRING, ESCAPE, UNICODE):
                rest = min((k for k in self._unused() if k.startswith(self.key)), key=len)[len(self.key) :]
                return rest + b'"'
            if js.mode == OBJ_KEY:
                return b'"' + min(self._unused(), key=len) + b'"'
        return js.closing_step()


class ToolCallConstraint:
    """Drives one constrained reply. The engine asks, at each step: is there a forced run of tokens (`forced_run`)?
    if not, which tokens are allowed (`allowed_ids` when the set is small and explicit, else the `accepts` test)?
    and then reports what it appended (`advance`)."""

    def __init__(self, vocab: Vocab, encode: Callable[[str], list[int]], tools: dict[str, list[str] | None],
                 eos_id: int):
        """tools: tool name -> its allowed argument keys (None: any key)."""
        if not tools:
            raise ValueError("a constrained tool call needs at least one tool")
        self.vocab, self.encode, self.eos_id = vocab, encode, eos_id
        targets = tuple(_escaped(n) + ARGUMENTS_KEY.encode() for n in tools)
        keys = tuple(None if k is None else tuple(_escaped(x) for x in k) for k in tools.values())
        self.state = CallState(targets=targets, tool_keys=keys)

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
        return len(self.finish_ids(CallState(targets=self.state.targets, tool_keys=self.state.tool_keys)))

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
        """In NAME, the candidates: token ids spelling a non-empty prefix of what is left of some target. Elsewhere
        None (too many candidates to list; test them with `accepts`)."""
        s = self.state
        if s.phase != NAME:
            return None
        ids: set[int] = set()
        for target in s.targets:
            if target.startswith(s.name):
                rest = target[len(s.name) :]
                for n in range(1, len(rest) + 1):
                    ids.update(self.vocab.by_bytes.get(rest[:n], ()))
        return sorted(ids)

    def advance(self, token_id: int) -> None:
        after = self._after(token_id)
        if after is None:
            raise ValueError(f"token {token_id} breaks the tool call in phase {self.state.phase}")
        self.state = after


def _escaped(text: str) -> bytes:
    """A JSON string's body as json.dumps writes it: the only spelling of a name or key the constraint accepts."""
    return json.dumps(text, ensure_ascii=False)[1:-1].encode()
