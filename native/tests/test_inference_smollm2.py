"""The real SmolLM2-135M-Instruct (slow: the first run de-quantises the GGUF into the cache, ~1-2 min on 2 cores; later
runs load the cache in seconds). One constrained request through the engine must give a valid tool call."""

import json

import pytest
import torch

from debugrl_native.inference.engine import Engine
from debugrl_native.inference.models import load_model
from debugrl_native.inference.protocol import ChatRequest

pytestmark = pytest.mark.slow  # loads SmolLM2


def test_smollm2_produces_a_valid_constrained_tool_call():
    torch.set_num_threads(2)
    engine = Engine(load_model("smollm2"))
    assert engine.loaded.context_length == 8192
    assert sum(p.numel() for p in engine.loaded.model.parameters()) == 134_515_008
    read_file = {"name": "read_file", "description": "Read a file of the repository",
                 "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}
    done = {"name": "done", "description": "Stop", "parameters": {"type": "object"}}
    tools = [{"type": "function", "function": read_file}, {"type": "function", "function": done}]
    req = ChatRequest(messages=[{"role": "user", "content": "The test for add() in calc.py fails. Read calc.py."}],
                      tools=tools, tool_choice="required", max_tokens=48, temperature=0.0, logprobs=True,
                      return_token_ids=True)
    reply = engine.complete(req)
    choice = reply["choices"][0]
    call = choice["message"]["tool_calls"][0]["function"]
    assert call["name"] in {"read_file", "done"}
    assert isinstance(json.loads(call["arguments"]), dict)
    assert len(choice["token_ids"]) == len(choice["logprobs"]["content"]) == reply["usage"]["completion_tokens"] <= 48
    # A trained model puts real mass on its own greedy choices: the mean logprob is far above a uniform guess
    # (log(1/49152) = -10.8), which a broken weight conversion would give.
    mean = sum(e["logprob"] for e in choice["logprobs"]["content"]) / len(choice["logprobs"]["content"])
    assert mean > -3.0
