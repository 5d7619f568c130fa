"""The embedded server over real HTTP, with the tiny random model: a real subprocess, real sockets, the real SmolLM2
tokenizer and chat template. The random model makes terrible choices, which is what the constrained decoder must
survive."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import torch

from debugrl_native.inference.tool_format import CALL_PREFIX, CALL_SUFFIX
from test_inference_schema import violations

pytestmark = pytest.mark.slow  # every test shares one server whose start alone took 56 s

TOOLS = [
    {"type": "function", "function": {
        "name": "read_file", "description": "Read a file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string", "minLength": 1}},
                       "required": ["path"], "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "break", "description": "Set a breakpoint",
        "parameters": {"type": "object", "properties": {"line": {"type": "integer", "minimum": 1}},
                       "required": ["line"], "additionalProperties": False}}},
    {"type": "function", "function": {"name": "done", "description": "Finish",
                                      "parameters": {"type": "object", "properties": {}}}},
]
MESSAGES = [
    {"role": "system", "content": "You fix Python bugs with a debugger."},
    {"role": "user", "content": "test_add fails. Look at calc.py."},
    {"role": "assistant", "content": None,
     "tool_calls": [{"id": "c1", "type": "function",
                     "function": {"name": "read_file", "arguments": '{"path": "calc.py"}'}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "def add(a, b):\n    return a - b\n"},
]


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen(
        [sys.executable, "-m", "debugrl_native.inference.server", "--model", "tiny-random", "--port", "0",
         "--threads", "1"],
        stderr=subprocess.PIPE, text=True,
    )
    deadline = time.time() + 300
    url = None
    lines = []
    while time.time() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        if "debugrl-inference ready on " in line:
            url = line.split("ready on ")[1].split()[0]
            break
    if url is None:
        proc.kill()
        raise RuntimeError("server did not start:\n" + "".join(lines[-30:]))
    # Keep draining stderr so the server never blocks on a full pipe.
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    yield url
    proc.terminate()
    proc.wait(timeout=30)


def call(url: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def chat(url: str, **kw) -> tuple[int, dict]:
    body = {"model": "default", "messages": MESSAGES, "tools": TOOLS, "tool_choice": "required", "max_tokens": 40,
            "temperature": 1.0, "seed": 0, "logprobs": True, "return_token_ids": True}
    body.update(kw)
    return call(url, "/v1/chat/completions", body)


def assert_consistent(reply: dict, max_tokens: int) -> None:
    choice = reply["choices"][0]
    n = reply["usage"]["completion_tokens"]
    assert 1 <= n <= max_tokens
    assert len(choice["token_ids"]) == n
    assert len(choice["logprobs"]["content"]) == n
    assert all(e["logprob"] <= 0.0 for e in choice["logprobs"]["content"])
    assert reply["usage"]["prompt_tokens"] == len(reply["prompt_token_ids"])


def test_health_and_models(server):
    status, body = call(server, "/health")
    assert status == 200 and body["status"] == "ok" and body["model"] == "tiny-random"
    assert body["adapters"] == [] and body["policy_version"] == 0
    status, body = call(server, "/v1/models")
    assert status == 200 and [m["id"] for m in body["data"]] == ["default"]


@pytest.mark.parametrize("seed", range(16))
def test_required_tool_choice_always_yields_a_valid_call(server, seed):
    temperature = [0.0, 0.7, 1.0, 1.5][seed % 4]
    max_tokens = [24, 27, 40, 80][seed // 3 % 4]  # 24 is exactly the shortest call here: the budget logic matters
    status, reply = chat(server, seed=seed, temperature=temperature, max_tokens=max_tokens)
    assert status == 200, reply
    choice = reply["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    calls = choice["message"]["tool_calls"]
    assert len(calls) == 1
    assert calls[0]["type"] == "function" and calls[0]["id"]
    assert calls[0]["function"]["name"] in {t["function"]["name"] for t in TOOLS}
    args = json.loads(calls[0]["function"]["arguments"])
    assert isinstance(args, dict)
    declared = next(t for t in TOOLS if t["function"]["name"] == calls[0]["function"]["name"])["function"]["parameters"]
    assert violations(args, declared) == []  # keys, value types and required keys follow the schema
    assert_consistent(reply, max_tokens)
    # The reply is the documented text layout, ending with the end-of-turn token.
    entries = choice["logprobs"]["content"]
    text = b"".join(bytes(e["bytes"]) for e in entries[:-1]).decode("utf-8", errors="replace")
    assert text.startswith(CALL_PREFIX) and text.endswith(CALL_SUFFIX)
    assert entries[-1]["token"] == "<|im_end|>"


def test_named_tool_choice_forces_that_tool(server):
    for seed in range(3):
        status, reply = chat(server, seed=seed, tool_choice={"type": "function", "function": {"name": "break"}})
        assert status == 200, reply
        assert reply["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "break"


def test_seed_makes_sampling_reproducible(server):
    kw = dict(tool_choice="auto", max_tokens=12, temperature=1.0)
    _, a = chat(server, seed=123, **kw)
    _, b = chat(server, seed=123, **kw)
    others = [chat(server, seed=s, **kw)[1]["choices"][0]["token_ids"] for s in (1, 2, 3)]
    assert a["choices"][0]["token_ids"] == b["choices"][0]["token_ids"]
    la = [e["logprob"] for e in a["choices"][0]["logprobs"]["content"]]
    lb = [e["logprob"] for e in b["choices"][0]["logprobs"]["content"]]
    assert la == pytest.approx(lb, abs=1e-4)  # the second call reuses the KV cache of the first
    assert any(o != a["choices"][0]["token_ids"] for o in others)
    assert_consistent(a, 12)


def test_logprobs_match_a_fresh_forward_pass(server):
    """The reported logprob of each token is log softmax(logits / T) of the unconstrained model at that position."""
    from debugrl_native.inference.models import build_tiny_random

    temperature = 0.7
    status, reply = chat(server, seed=5, temperature=temperature, max_tokens=30)
    assert status == 200
    loaded = build_tiny_random()  # same seed as the server's, so the same weights
    prompt, completion = reply["prompt_token_ids"], reply["choices"][0]["token_ids"]
    with torch.no_grad():
        logits = loaded.model(torch.tensor([prompt + completion])).logits[0]
    expected = torch.log_softmax(logits[len(prompt) - 1 : -1] / temperature, dim=-1)
    expected = expected[torch.arange(len(completion)), torch.tensor(completion)].tolist()
    got = [e["logprob"] for e in reply["choices"][0]["logprobs"]["content"]]
    assert got == pytest.approx(expected, abs=1e-3)


def test_context_overflow_is_a_400_with_the_phrase(server):
    long = [{"role": "user", "content": "word " * 3000}]  # about 3000 tokens; the tiny model's context is 1024
    status, body = chat(server, messages=long)
    assert status == 400
    assert "maximum context length" in body["error"]["message"]


@pytest.mark.parametrize(
    "change, field",
    [
        ({"messages": [{"role": "robot", "content": "hi"}]}, "messages.0"),
        ({"temperature": 5}, "temperature"),
        ({"max_token": 10}, "max_token"),
        ({"tools": None}, "tool_choice"),  # "required" without tools
        ({"max_tokens": 5}, "max_tokens"),  # too few for the shortest constrained call
        ({"messages": [{"role": "tool", "content": "x"}]}, "messages.0.tool.tool_call_id"),
    ],
)
def test_bad_request_is_a_400_naming_the_field(server, change, field):
    status, body = chat(server, **change)
    assert status == 400, body
    assert field in body["error"]["message"]
    assert "context" not in body["error"]["message"]  # the client would mistake it for an overflow


def test_unknown_model_is_a_404(server):
    status, body = chat(server, model="nope")
    assert status == 404 and "nope" in body["error"]["message"]


def make_adapter(folder: Path, version: int | None, seed: int = 1) -> None:
    """A PEFT LoRA adapter for the tiny model, with non-zero B so it changes outputs, written by peft itself."""
    from peft import LoraConfig, get_peft_model
    from safetensors.torch import load_file, save_file

    from debugrl_native.inference.models import build_tiny_random

    base = build_tiny_random().model
    peft_model = get_peft_model(base, LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "o_proj"]))
    torch.manual_seed(seed)
    for name, p in peft_model.named_parameters():
        if "lora_B" in name:
            torch.nn.init.normal_(p, std=1.0)
    peft_model.save_pretrained(str(folder))
    if version is not None:
        weights = folder / "adapter_model.safetensors"
        save_file(load_file(str(weights)), str(weights), metadata={"format": "pt", "policy_version": str(version)})


def test_adapter_hot_load_changes_outputs_and_unload_restores_the_base(server, tmp_path):
    make_adapter(tmp_path / "pol", version=7)
    greedy = dict(tool_choice="auto", max_tokens=8, temperature=0.0)
    _, base_before = chat(server, **greedy)

    status, body = call(server, "/v1/load_lora_adapter", {"lora_name": "pol", "lora_path": str(tmp_path / "pol")})
    assert status == 200 and body["policy_version"] == 7, body
    _, health = call(server, "/health")
    assert [a["name"] for a in health["adapters"]] == ["pol"] and health["policy_version"] == 7

    status, tuned = chat(server, model="pol", **greedy)
    assert status == 200 and tuned["policy_version"] == 7
    assert base_before["policy_version"] == 0
    base_lp = [e["logprob"] for e in base_before["choices"][0]["logprobs"]["content"]]
    tuned_lp = [e["logprob"] for e in tuned["choices"][0]["logprobs"]["content"]]
    assert tuned["choices"][0]["token_ids"] != base_before["choices"][0]["token_ids"] or base_lp != pytest.approx(
        tuned_lp, abs=1e-3)

    # The base model is still served, unchanged, while the adapter is loaded.
    _, base_during = chat(server, **greedy)
    assert base_during["choices"][0]["token_ids"] == base_before["choices"][0]["token_ids"]

    # A constrained call through the adapter is valid too.
    status, reply = chat(server, model="pol", seed=3)
    assert status == 200 and json.loads(reply["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]) \
        is not None

    status, _ = call(server, "/v1/unload_lora_adapter", {"lora_name": "pol"})
    assert status == 200
    status, body = chat(server, model="pol", **greedy)
    assert status == 404
    _, base_after = chat(server, **greedy)
    assert base_after["choices"][0]["token_ids"] == base_before["choices"][0]["token_ids"]
    _, health = call(server, "/health")
    assert health["adapters"] == [] and health["policy_version"] == 0


def test_loading_a_name_again_serves_the_new_weights(server, tmp_path):
    # A second training run's policy-v1 loaded under a name already loaded: same version number, other weights. The
    # server must serve the new folder (the publisher's canary compares against exactly these), not keep the old.
    make_adapter(tmp_path / "first", version=1, seed=1)
    make_adapter(tmp_path / "second", version=1, seed=2)
    greedy = dict(tool_choice="auto", max_tokens=8, temperature=0.0)

    def served(name: str) -> tuple[list[int], list[float]]:
        status, reply = chat(server, model=name, **greedy)
        assert status == 200 and reply["policy_version"] == 1, reply
        choice = reply["choices"][0]
        return choice["token_ids"], [e["logprob"] for e in choice["logprobs"]["content"]]

    assert call(server, "/v1/load_lora_adapter", {"lora_name": "second-ref", "lora_path": str(tmp_path / "second")})[0] == 200
    assert call(server, "/v1/load_lora_adapter", {"lora_name": "run.policy-v1", "lora_path": str(tmp_path / "first")})[0] == 200
    first_ids, first_lp = served("run.policy-v1")
    ref_ids, ref_lp = served("second-ref")
    assert first_ids != ref_ids or first_lp != pytest.approx(ref_lp, abs=1e-3)  # the two adapters really differ

    status, body = call(server, "/v1/load_lora_adapter", {"lora_name": "run.policy-v1", "lora_path": str(tmp_path / "second")})
    assert status == 200 and body["path"] == str((tmp_path / "second").resolve()), body
    again_ids, again_lp = served("run.policy-v1")
    assert again_ids == ref_ids and again_lp == pytest.approx(ref_lp, abs=1e-5)
    _, health = call(server, "/health")
    assert sorted(a["name"] for a in health["adapters"]) == ["run.policy-v1", "second-ref"]
    for name in ("run.policy-v1", "second-ref"):
        assert call(server, "/v1/unload_lora_adapter", {"lora_name": name})[0] == 200


def test_adapter_without_version_reports_zero_and_bad_paths_are_400(server, tmp_path):
    make_adapter(tmp_path / "plain", version=None)
    status, body = call(server, "/v1/load_lora_adapter", {"lora_name": "plain", "lora_path": str(tmp_path / "plain")})
    assert status == 200 and body["policy_version"] == 0
    status, _ = call(server, "/v1/unload_lora_adapter", {"lora_name": "plain"})
    assert status == 200
    status, body = call(server, "/v1/load_lora_adapter", {"lora_name": "x", "lora_path": str(tmp_path / "missing")})
    assert status == 400 and "lora_path" in body["error"]["message"]
    status, body = call(server, "/v1/load_lora_adapter", {"lora_name": "default", "lora_path": str(tmp_path)})
    assert status == 400 and "lora_name" in body["error"]["message"]
    status, body = call(server, "/v1/unload_lora_adapter", {"lora_name": "never"})
    assert status == 404 and "never" in body["error"]["message"]


def test_top_logprobs_text_parts_and_tool_choice_none(server):
    msgs = [{"role": "developer", "content": [{"type": "text", "text": "Be brief."}]},
            {"role": "user", "content": [{"type": "text", "text": "Hello "}, {"type": "text", "text": "there"}]}]
    status, reply = chat(server, messages=msgs, tool_choice="none", max_tokens=6, top_logprobs=3, seed=9)
    assert status == 200, reply
    choice = reply["choices"][0]
    assert choice["message"]["tool_calls"] == [] and choice["finish_reason"] in ("stop", "length")
    for entry in choice["logprobs"]["content"]:
        tops = [t["logprob"] for t in entry["top_logprobs"]]
        assert len(tops) == 3 and tops == sorted(tops, reverse=True) and entry["logprob"] <= tops[0] + 1e-6
    assert_consistent(reply, 6)


def test_adapters_dir_loads_every_adapter_folder(tmp_path):
    from debugrl_native.inference.engine import Engine
    from debugrl_native.inference.models import build_tiny_random
    from debugrl_native.inference.server import load_adapters_dir

    make_adapter(tmp_path / "v3", version=3)
    (tmp_path / "notes").mkdir()  # not an adapter: skipped
    engine = Engine(build_tiny_random())
    load_adapters_dir(engine, tmp_path)
    assert {n: a.policy_version for n, a in engine.adapters.loaded.items()} == {"v3": 3}


def test_prefix_cache_reuse_gives_the_same_tokens_and_logprobs_as_a_fresh_prefill():
    from debugrl_native.inference.engine import Engine
    from debugrl_native.inference.models import build_tiny_random
    from debugrl_native.inference.protocol import ChatRequest
    from debugrl_native.inference.sampling import SamplingParams

    cached, fresh = Engine(build_tiny_random()), Engine(build_tiny_random(), prefix_cache=False)
    first = cached.render(ChatRequest(messages=MESSAGES[:2]))
    longer = cached.render(ChatRequest(messages=MESSAGES))  # shares the system turn and more with `first`
    params = SamplingParams(temperature=1.0)
    cached.generate(first, 10, params, seed=0, adapter=None)
    reused = cached.generate(longer, 10, params, seed=4, adapter=None)
    assert 0 < reused.prefill_tokens < len(longer)  # only the new part was prefilled
    again = fresh.generate(longer, 10, params, seed=4, adapter=None)
    assert reused.token_ids == again.token_ids
    assert reused.logprobs == pytest.approx(again.logprobs, abs=1e-4)


def health_of(url: str) -> dict:
    status, body = call(url, "/health")
    assert status == 200
    return body


def wait_for(url: str, test, what: str, timeout: float = 60.0) -> dict:
    deadline = time.time() + timeout
    while time.time() < deadline:
        h = health_of(url)
        if test(h):
            return h
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}: {h}")


def long_body(**kw) -> dict:
    body = {"model": "default", "messages": MESSAGES[:2], "tool_choice": "none", "max_tokens": 900,
            "temperature": 1.0, "seed": 2}
    body.update(kw)
    return body


def test_a_client_that_disconnects_frees_its_sequence(server):
    import socket
    from urllib.parse import urlparse

    before = health_of(server)
    data = json.dumps(long_body()).encode()
    u = urlparse(server)
    sock = socket.create_connection((u.hostname, u.port))
    sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                 b"content-length: " + str(len(data)).encode() + b"\r\n\r\n" + data)
    wait_for(server, lambda h: h["scheduler"]["active"] == 1, "the long request to start decoding")
    sock.close()
    after = wait_for(server, lambda h: h["scheduler"]["active"] == 0, "the sequence to be dropped")
    assert after["scheduler"]["cancelled"] == before["scheduler"]["cancelled"] + 1
    assert after["scheduler"]["completed"] == before["scheduler"]["completed"]
    assert after["kv_cache"]["entries"] == before["kv_cache"]["entries"]  # its half-done cache is not kept
    status, reply = chat(server, max_tokens=24)  # and the server goes on serving
    assert status == 200, reply


def test_bad_requests_get_4xx_while_another_sequence_keeps_decoding(server, tmp_path):
    make_adapter(tmp_path / "v1", version=1)
    make_adapter(tmp_path / "v2", version=2, seed=2)
    assert call(server, "/v1/load_lora_adapter", {"lora_name": "busy", "lora_path": str(tmp_path / "v1")})[0] == 200
    results: dict[str, tuple[int, dict]] = {}
    long_run = threading.Thread(target=lambda: results.update(
        long=call(server, "/v1/chat/completions", long_body(model="busy", max_tokens=700))))
    long_run.start()
    started = wait_for(server, lambda h: h["scheduler"]["active"] == 1, "the long request to start decoding")

    status, body = chat(server, messages=[{"role": "user", "content": "word " * 3000}])
    assert status == 400 and "maximum context length" in body["error"]["message"]
    status, body = chat(server, model="nobody")
    assert status == 404 and "nobody" in body["error"]["message"]
    status, body = chat(server, max_tokens=0)
    assert status == 400 and "max_tokens" in body["error"]["message"]
    # A new version of `busy` waits for the sequence decoding with the old one; a second load meanwhile is a 409.
    loader = threading.Thread(target=lambda: results.update(load=call(
        server, "/v1/load_lora_adapter", {"lora_name": "busy", "lora_path": str(tmp_path / "v2")})))
    loader.start()
    wait_for(server, lambda h: h["scheduler"]["pending_adapter_ops"] == 1, "the load to be queued")
    status, body = call(server, "/v1/load_lora_adapter", {"lora_name": "busy", "lora_path": str(tmp_path / "v1")})
    assert status == 409 and "busy" in body["error"]["message"], body
    during = health_of(server)
    assert during["scheduler"]["active"] == 1 and during["scheduler"]["steps"] > started["scheduler"]["steps"]

    long_run.join(timeout=120)
    loader.join(timeout=120)
    status, reply = results["long"]
    assert status == 200 and reply["policy_version"] == 1, reply
    assert 1 <= reply["usage"]["completion_tokens"] <= 700
    assert reply["choices"][0]["finish_reason"] in ("stop", "length")
    assert results["load"][0] == 200 and results["load"][1]["policy_version"] == 2
    status, reply = chat(server, model="busy", max_tokens=24)
    assert status == 200 and reply["policy_version"] == 2
    assert health_of(server)["kv_cache"]["stale_kv_tokens"] == 0
    assert call(server, "/v1/unload_lora_adapter", {"lora_name": "busy"})[0] == 200
