"""Constrained tool calls respect the argument schema: value types, string lengths, integer ranges and required keys.

The oracle is `violations` below, a small validator for the JSON Schema subset our tools use, written independently
of arg_schema.py. Random logits over the real SmolLM2 tokenizer stand in for an adversarial model; the real sampler
picks tokens; the tools are hand-made ones that cover every kind, and the real harness tools (harness/tools.ts through
zod's `z.toJSONSchema`, saved in fixtures/harness_tool_specs.json; regenerate it with
`node -e "console.log(JSON.stringify(require('./lib/harness/tools.js').toolSpecs('full'),null,1))"` from the repo root
after `npm run build`)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import torch

from debugrl_native.inference.arg_schema import INTEGER, ValueSpec, args_spec, integer_completion
from debugrl_native.inference.constrained import ToolCallConstraint
from debugrl_native.inference.models import load_tokenizer
from debugrl_native.inference.protocol import ChatRequest
from debugrl_native.inference.sampling import SamplingParams, choose_token
from debugrl_native.inference.tool_format import CALL_PREFIX, CALL_SUFFIX, parse_reply
from debugrl_native.inference.vocab import Vocab

HARNESS_TOOLS = json.loads((Path(__file__).parent / "fixtures" / "harness_tool_specs.json").read_text())


# -- the oracle --------------------------------------------------------------------------------------------------------

def violations(args: object, schema: dict) -> list[str]:
    """What is wrong with `args` for a tool's `parameters` (top level only; [] when it is valid)."""
    if not isinstance(args, dict):
        return ["arguments: not an object"]
    props = schema.get("properties")
    if not isinstance(props, dict):
        return []
    out = [f"{r}: missing" for r in schema.get("required", []) if r not in args]
    for key, value in args.items():
        if key in props:
            out += [f"{key}: {why}" for why in value_violations(value, props[key])]
        elif schema.get("additionalProperties") is False:
            out.append(f"{key}: not a property")
    return out


def value_violations(v: object, s: dict) -> list[str]:
    kinds = {
        "string": isinstance(v, str),
        "integer": isinstance(v, int) and not isinstance(v, bool),
        "number": isinstance(v, (int, float)) and not isinstance(v, bool),
        "boolean": isinstance(v, bool),
        "null": v is None,
        "array": isinstance(v, list),
        "object": isinstance(v, dict),
    }
    t = s.get("type")
    if t not in kinds:
        return []
    if not kinds[t]:
        return [f"{v!r} is not a {t}"]
    out = []
    if t == "string":
        units = len(v.encode("utf-16-le")) // 2  # JavaScript's .length, which zod checks
        if units < s.get("minLength", 0):
            out.append(f"shorter than {s['minLength']}")
        if "maxLength" in s and units > s["maxLength"]:
            out.append(f"longer than {s['maxLength']}")
    if t in ("integer", "number"):
        if "minimum" in s and v < s["minimum"]:
            out.append(f"below {s['minimum']}")
        if "maximum" in s and v > s["maximum"]:
            out.append(f"above {s['maximum']}")
        if "exclusiveMinimum" in s and v <= s["exclusiveMinimum"]:
            out.append(f"not above {s['exclusiveMinimum']}")
        if "exclusiveMaximum" in s and v >= s["exclusiveMaximum"]:
            out.append(f"not below {s['exclusiveMaximum']}")
    return out


BREAK = {"type": "object", "additionalProperties": False, "required": ["file", "line"], "properties": {
    "file": {"type": "string", "minLength": 1, "maxLength": 500},
    "line": {"type": "integer", "minimum": 1, "maximum": 1_000_000}}}


def test_the_oracle_itself_catches_each_kind_of_mistake():
    assert violations({"file": "a.py", "line": 3}, BREAK) == []
    assert violations({"line": 3, "file": "a.py"}, BREAK) == []
    # The reply the issue started from: an object where a string is required, and `line` missing.
    assert violations({"file": {"type": "string"}}, BREAK) == [
        "line: missing", "file: {'type': 'string'} is not a string"]
    assert violations({"file": "", "line": 0}, BREAK) == ["file: shorter than 1", "line: below 1"]
    assert violations({"file": "a", "line": 1.5}, BREAK) == ["line: 1.5 is not a integer"]
    assert violations({"file": "a", "line": True}, BREAK) == ["line: True is not a integer"]
    assert violations({"file": "a", "line": 1, "x": 1}, BREAK) == ["x: not a property"]
    emoji = {"properties": {"e": {"type": "string", "maxLength": 1}}}
    assert violations({"e": "😀"}, emoji) == ["e: longer than 1"]  # one code point, two UTF-16 units
    assert violations({"e": "é"}, emoji) == []


# -- the schema subset, by hand ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("literal, lo, hi, expected", [
    (b"-", -20, -3, b"3"),  # the magnitude nearest zero in range
    (b"-1", -20, -3, b"0"),  # -1 is out; -10 is the shortest literal starting with -1 in range
    (b"-2", -20, -3, b"0"),  # -20
    (b"-3", -20, -3, b""),  # already in range
    (b"-21", -20, -3, None),  # every extension is below -20
    (b"5", 100, None, b"00"),  # 5, 50..59 are too small; 500
    (b"9", 10, 15, None),  # 9 too small, 90..99 too large
    (b"0", 1, None, None),  # nothing may follow a leading zero
    (b"0", None, None, b""),
    (b"-", None, None, b"0"),  # "-0" is a JSON integer (zero)
    (b"12", 1, 1_000_000, b""),
    (b"1000001", 1, 1_000_000, None),
])
def test_integer_completion_by_hand(literal, lo, hi, expected):
    assert integer_completion(literal, lo, hi) == expected


def test_args_spec_reads_zod_schemas_and_refuses_unsatisfiable_ones():
    spec = args_spec(BREAK)
    assert spec.keys == (b"file", b"line") and spec.required == (b"file", b"line")
    assert spec.spec(b"line") == ValueSpec(INTEGER, minimum=1, maximum=1_000_000)
    # exclusive bounds of an integer: (5, 120) holds 6..119; its default is the value nearest zero.
    size = args_spec({"properties": {"n": {"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 120}}})
    assert size.spec(b"n") == ValueSpec(INTEGER, minimum=6, maximum=119) and size.spec(b"n").default() == b"6"
    assert args_spec({"type": "object"}).keys is None  # no properties: any key
    with pytest.raises(ValueError, match=r"parameters\.properties\.s: minLength 3 is above maxLength 2"):
        args_spec({"properties": {"s": {"type": "string", "minLength": 3, "maxLength": 2}}})
    with pytest.raises(ValueError, match="no integer lies between"):
        args_spec({"properties": {"i": {"type": "integer", "exclusiveMinimum": 1, "maximum": 1.5}}})


def test_an_unsatisfiable_schema_is_a_bad_request_when_decoding_is_constrained():
    tool = {"type": "function", "function": {"name": "t", "parameters": {
        "type": "object", "properties": {"s": {"type": "string", "minLength": 2, "maxLength": 1}}}}}
    msgs = [{"role": "user", "content": "hi"}]
    with pytest.raises(ValueError, match=r"tools\.0\.function\.parameters\.properties\.s"):
        ChatRequest(messages=msgs, tools=[tool], tool_choice="required")
    ChatRequest(messages=msgs, tools=[tool], tool_choice="auto")  # not constrained: not our business


@pytest.fixture(scope="module")
def tok():
    t = load_tokenizer()
    return t, Vocab.from_tokenizer(t)


def constraint(tok, tools: dict[str, dict]) -> ToolCallConstraint:
    tokenizer, vocab = tok
    encode = lambda s: tokenizer(s, add_special_tokens=False)["input_ids"]  # noqa: E731
    return ToolCallConstraint(vocab, encode, {n: args_spec(p) for n, p in tools.items()}, tokenizer.eos_token_id)


def test_bytes_that_break_the_schema_are_refused(tok):
    c = constraint(tok, {"remove_breakpoint": BREAK})
    start = c.state.feed(CALL_PREFIX.encode() + b'remove_breakpoint", "arguments": ')
    ok = lambda text: start.feed(text.encode()) is not None  # noqa: E731
    assert ok('{"file": "a.py", "line": 3}}' + CALL_SUFFIX)
    assert ok('{ "line" : 12 ,"file":"a.py" }}' + CALL_SUFFIX)  # any order, any (bounded) spacing
    assert not ok('{"file": {')  # the reply that started this: an object where a string is required
    assert not ok('{"file": "a.py"}')  # closing before the required `line`
    assert not ok('{}')
    assert not ok('{"file": ""')  # minLength 1
    assert not ok('{"line": "3"')  # a string where an integer is required
    for bad in ("1.", "1e", "-", "0", "1000001", "true"):
        assert not ok('{"line": ' + bad), bad
    assert ok('{"line": 1000000')
    assert not ok('{"file": "a", "file"')  # each key once
    size = {"type": "object", "properties": {"n": {"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 120},
                                             "e": {"type": "string", "maxLength": 2}}}
    c = constraint(tok, {"t": size})
    start = c.state.feed(CALL_PREFIX.encode() + b't", "arguments": {')
    assert start.feed(b'"n": 5') is not None and start.feed(b'"n": 5}') is None  # 5 may still become 50..59
    assert start.feed(b'"n": 6}') is not None and start.feed(b'"n": 119}') is not None
    assert start.feed(b'"n": 120') is None
    assert start.feed('"e": "😀"'.encode()) is not None  # two UTF-16 units: fits maxLength 2
    assert start.feed('"e": "😀a'.encode()) is None and start.feed(b'"e": "\\u00e9\\n"') is not None


def test_min_tokens_counts_the_required_arguments(tok):
    tokenizer, _ = tok
    c = constraint(tok, {"remove_breakpoint": BREAK})
    # The shortest call fills each required key with its default: "_" for minLength 1, 1 for minimum 1.
    shortest = CALL_PREFIX + 'remove_breakpoint", "arguments": {"file": "_", "line": 1}}' + CALL_SUFFIX
    assert c.min_tokens() == len(tokenizer(shortest, add_special_tokens=False)["input_ids"]) + 1
    assert c.state.finish_bytes() == shortest.encode()


# -- random logits -----------------------------------------------------------------------------------------------------

# Every kind the constraint knows, ranges that exclude zero (so a default of 0 would be wrong), a non-ASCII key, a
# string short enough that the cap bites, and a required key of a type that has no opening bracket to give it away.
KINDS = {"type": "object", "additionalProperties": False, "required": ["s", "neg", "b", "größe"], "properties": {
    "s": {"type": "string", "minLength": 2, "maxLength": 4},
    "neg": {"type": "integer", "minimum": -20, "maximum": -3},
    "größe": {"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 120},
    "x": {"type": "number"}, "b": {"type": "boolean"}, "z": {"type": "null"},
    "arr": {"type": "array"}, "obj": {"type": "object"}, "free": {}}}
MADE_UP = {"kinds": KINDS, "remove_breakpoint": BREAK, "none": {"type": "object", "properties": {}}}


@pytest.fixture(autouse=True)
def one_thread():
    """Sampling over 49k logits is ~10x slower with two torch threads on this busy 2-core machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def jsonish(vocab: Vocab, tools: dict[str, dict], strength: float) -> dict[int, float]:
    """A logit bonus for a pool of tokens a JSON writer needs: those of at most two bytes made of JSON punctuation,
    digits and lowercase letters, and those spelling part of a tool or argument name. The pool (~900 tokens) fits in
    the 1024 the sampler scans, so the random model reaches the values; without it nearly every allowed token ranks
    below the scan (a key has one spelling) and the forced completion would write almost every argument."""
    chars = set(b'{}[]":, -.0123456789abcdefghijklmnopqrstuvwxyz_\\')
    names = [n.encode() for n in tools] + [k.encode() for p in tools.values() for k in p.get("properties", {})]
    return {i: strength for b, ids in vocab.by_bytes.items()
            if (len(b) <= 2 and set(b) <= chars) or any(b in n for n in names) for i in ids}


def decode_random(tok, tools: dict[str, dict], seed: int, max_tokens: int, bias: dict[int, float] | None = None):
    """One constrained reply driven by random logits plus `bias` (default: the jsonish pool); returns (token ids, the
    reply text, the call)."""
    tokenizer, vocab = tok
    if bias is None:
        bias = jsonish(vocab, tools, 8.0)
    c = constraint(tok, tools)
    assert c.min_tokens() <= max_tokens
    gen = torch.Generator().manual_seed(seed)
    rng = random.Random(seed)
    out: list[int] = []
    while not c.done:
        left = max_tokens - len(out)
        assert left > 0, "ran out of budget before the call was complete"
        logits = torch.randn(len(vocab.token_bytes), generator=gen) * rng.choice([0.5, 1.0, 2.0])
        for t, b in bias.items():
            logits[t] += b
        run = c.forced_run()
        if not run:
            params = SamplingParams(temperature=rng.choice([0.0, 1.0]), top_p=rng.choice([1.0, 0.9]))
            t = choose_token(torch.log_softmax(logits, -1), params, gen, allowed=c.allowed_ids(),
                             accepts=lambda i, left=left: c.accepts(i, left))
            run = [t] if t is not None else c.finish_ids()
        for t in run:
            c.advance(t)
        out.extend(run)
    assert out[-1] == tokenizer.eos_token_id
    text = b"".join(vocab.token_bytes[t] or b"" for t in out[:-1]).decode("utf-8")  # well-formed UTF-8 throughout
    assert text.startswith(CALL_PREFIX) and text.endswith(CALL_SUFFIX)
    content, calls = parse_reply(text)
    assert content is None and len(calls) == 1, text
    return out, text, calls[0]


def assert_valid(call, tools: dict[str, dict], text: str) -> None:
    assert call.name in tools
    assert violations(json.loads(call.arguments), tools[call.name]) == [], text


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(16))
def test_random_logits_give_arguments_that_fit_the_schema(tok, seed):
    # A single tool stands for a named tool_choice: half the seeds must call one of the two with required keys.
    tools = [{"kinds": KINDS}, {"remove_breakpoint": BREAK}, MADE_UP, MADE_UP][seed % 4]
    slack = [0, 2, 12, 40, 100][seed % 5]  # 0: exactly the shortest call
    max_tokens = constraint(tok, tools).min_tokens() + slack
    ids, text, call = decode_random(tok, tools, seed, max_tokens)
    assert len(ids) <= max_tokens
    assert_valid(call, tools, text)


@pytest.mark.parametrize("seed", range(6))
def test_a_model_pushed_towards_wrong_types_still_fits_the_schema(tok, seed):
    """Favour the first bytes of the wrong kinds (containers, quotes, signs, digits, literals) and number syntax."""
    tokenizer, vocab = tok
    tools = {"kinds": KINDS} if seed % 2 else {"remove_breakpoint": BREAK}
    wrong_starts = tuple(b"{[\"-01tn.e")
    bias = {i: s + (6.0 if vocab.token_bytes[i][0] in wrong_starts else 0.0)
            for i, s in jsonish(vocab, tools, 8.0).items()}
    max_tokens = constraint(tok, tools).min_tokens() + [3, 30, 80][seed % 3]
    ids, text, call = decode_random(tok, tools, 200 + seed, max_tokens, bias=bias)
    assert len(ids) <= max_tokens
    assert_valid(call, tools, text)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_the_real_harness_tools_get_valid_arguments(tok, seed):
    tools = {t["function"]["name"]: t["function"]["parameters"] for t in HARNESS_TOOLS}
    if seed % 3 == 0:  # a named tool_choice: only tools with required arguments, the case the issue is about
        name = ["remove_breakpoint", "add_breakpoint", "edit_file", "read_file"][seed // 3]
        tools = {name: tools[name]}
    max_tokens = constraint(tok, tools).min_tokens() + [0, 5, 25, 60][seed % 4]
    ids, text, call = decode_random(tok, tools, 300 + seed, max_tokens)
    assert len(ids) <= max_tokens
    assert_valid(call, tools, text)


def test_inside_a_key_the_listed_candidates_are_exactly_the_valid_tokens(tok):
    """allowed_ids must list every token the constraint accepts there, or sampling would not be over all valid
    tokens (the engine filters the list with `accepts`): checked against `accepts` over the whole vocabulary."""
    _, vocab = tok
    c = constraint(tok, {"kinds": KINDS})
    # A key begun, one mid-way, one cut inside a character, one whole but not closed (then `"`, `":`, `": "`, ...).
    for written in (b'{"', b'{"n', b'{"s": "ab", "gr\xc3', b'{"neg": -4, "', b'{"neg'):
        c.state = c.start.feed(CALL_PREFIX.encode() + b'kinds", "arguments": ' + written)
        brute = [i for i in range(len(vocab.token_bytes)) if c.accepts(i, 10_000)]
        assert [i for i in c.allowed_ids() if c.accepts(i, 10_000)] == brute, written
        assert brute
