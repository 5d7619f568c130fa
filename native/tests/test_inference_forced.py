"""The server marks each completion token the grammar forced (`choices[0].token_forced`, beside `token_ids`)."""

from __future__ import annotations

from debugrl_native.inference.constrained import ToolCallConstraint
from debugrl_native.inference.engine import Engine
from debugrl_native.inference.models import build_tiny_random
from debugrl_native.inference.protocol import ChatRequest
from debugrl_native.inference.tool_format import CALL_PREFIX
from test_inference_server import MESSAGES, TOOLS


def test_forced_flags_follow_the_grammar():
    engine = Engine(build_tiny_random())
    req = ChatRequest.model_validate({"model": "default", "messages": MESSAGES, "tools": TOOLS, "tool_choice": "required",
                                     "max_tokens": 48, "temperature": 1.0, "seed": 3, "return_token_ids": True})
    choice = engine.complete(req)["choices"][0]
    ids, forced = choice["token_ids"], choice["token_forced"]
    assert len(forced) == len(ids) and any(forced) and not all(forced)
    # The tool-call prefix is forced, token for token; EOS closes a finished call and is forced too.
    prefix = engine.encode(CALL_PREFIX)
    assert ids[: len(prefix)] == prefix and all(forced[: len(prefix)])
    assert ids[-1] == engine.tokenizer.eos_token_id and forced[-1]
    # Replaying the grammar: a token where it left no choice is marked forced, and a token marked sampled had choices.
    c = ToolCallConstraint(engine.vocab, engine.encode, req.constrained_tools, engine.tokenizer.eos_token_id)
    for t, f in zip(ids, forced):
        only = bool(c.forced_run()) or (lambda a: a is not None and len(a) == 1)(c.allowed_ids())
        if only:
            assert f, engine.tokenizer.decode([t])
        c.advance(t)

def test_unconstrained_replies_force_nothing():
    engine = Engine(build_tiny_random())
    req = ChatRequest.model_validate({"model": "default", "messages": MESSAGES, "max_tokens": 8, "temperature": 1.0,
                                     "seed": 1, "return_token_ids": True})
    choice = engine.complete(req)["choices"][0]
    assert choice["token_forced"] == [False] * len(choice["token_ids"])
