"""Constrained tool-call decoding without a model: random logits stand in for an adversarial model, the real SmolLM2
tokenizer supplies real token boundaries, and the real sampler picks tokens. Whatever the logits, the reply must be
one well-formed call of a given tool, within the budget, with argument keys from the schema."""

from __future__ import annotations

import json
import random

import pytest
import torch

from debugrl_native.inference.arg_schema import ANY_ARGS, args_spec
from debugrl_native.inference.constrained import ToolCallConstraint
from debugrl_native.inference.models import load_tokenizer
from debugrl_native.inference.sampling import SamplingParams, choose_token
from debugrl_native.inference.tool_format import CALL_PREFIX, CALL_SUFFIX, parse_reply
from debugrl_native.inference.vocab import Vocab

# "run" is a prefix of "run_tests", and one key is not ASCII: both are places a trie or a byte check can go wrong.
# No types and no `required` here: this file checks the call layout and the keys; test_inference_schema.py the types.
KEYS = {"run": ["cmd"], "run_tests": [], "edit": ["path", "start", "text", "größe"], "free": None}
TOOLS = {name: args_spec({"type": "object"} if keys is None else {"properties": {k: {} for k in keys}})
         for name, keys in KEYS.items()}


@pytest.fixture(scope="module")
def tok():
    t = load_tokenizer()
    return t, Vocab.from_tokenizer(t)


def decode_with_random_logits(tok, seed: int, max_tokens: int, bias: dict[int, float] | None = None):
    tokenizer, vocab = tok
    encode = lambda s: tokenizer(s, add_special_tokens=False)["input_ids"]  # noqa: E731
    c = ToolCallConstraint(vocab, encode, TOOLS, tokenizer.eos_token_id)
    gen = torch.Generator().manual_seed(seed)
    rng = random.Random(seed)
    out: list[int] = []
    while not c.done:
        left = max_tokens - len(out)
        assert left > 0, "ran out of budget before the call was complete"
        logits = torch.randn(len(vocab.token_bytes), generator=gen) * rng.choice([1.0, 4.0])
        for t, b in (bias or {}).items():
            logits[t] += b
        run = c.forced_run()
        if not run:
            lp = torch.log_softmax(logits, -1)
            params = SamplingParams(temperature=rng.choice([0.0, 1.0]))
            t = choose_token(lp, params, gen, allowed=c.allowed_ids(), accepts=lambda i, left=left: c.accepts(i, left))
            run = [t] if t is not None else c.finish_ids()
        for t in run:
            c.advance(t)
        out.extend(run)
    return out, b"".join(vocab.token_bytes[t] or b"" for t in out[:-1]), c


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(30))
def test_random_logits_always_give_a_valid_call_within_budget(tok, seed):
    max_tokens = [28, 40, 64, 120][seed % 4]
    ids, text, c = decode_with_random_logits(tok, seed, max_tokens)
    assert len(ids) <= max_tokens and ids[-1] == tok[0].eos_token_id
    decoded = text.decode("utf-8")  # closing never leaves half a character behind
    assert decoded.startswith(CALL_PREFIX) and decoded.endswith(CALL_SUFFIX)
    content, calls = parse_reply(decoded)
    assert content is None and len(calls) == 1
    name, args = calls[0].name, json.loads(calls[0].arguments)
    assert name in TOOLS and isinstance(args, dict)
    if KEYS[name] is not None:
        assert set(args) <= set(KEYS[name])


@pytest.mark.parametrize("seed", range(6))
def test_a_model_that_loves_brackets_is_still_closed_in_time(tok, seed):
    """Push the model towards opening containers: the budget check must leave room to close every one of them."""
    tokenizer, vocab = tok
    openers = {i: 8.0 for b, ids in vocab.by_bytes.items() if set(b) <= set(b'[{"') for i in ids}
    ids, text, _ = decode_with_random_logits(tok, 100 + seed, 48, bias=openers)
    assert len(ids) <= 48
    _, calls = parse_reply(text.decode("utf-8"))
    assert len(calls) == 1 and isinstance(json.loads(calls[0].arguments), dict)


def test_min_tokens_is_the_shortest_call(tok):
    tokenizer, vocab = tok
    encode = lambda s: tokenizer(s, add_special_tokens=False)["input_ids"]  # noqa: E731
    c = ToolCallConstraint(vocab, encode, {"run": ANY_ARGS, "edit": ANY_ARGS}, tokenizer.eos_token_id)
    # The shortest call spelled out: prefix, the shorter name, empty arguments, suffix, then EOS (+1).
    shortest = CALL_PREFIX + 'run", "arguments": {}}' + CALL_SUFFIX
    assert c.min_tokens() == len(encode(shortest)) + 1
