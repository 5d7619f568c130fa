"""Continuous batching and per-conversation KV caches (scheduler.py, kv_cache.py, batched_forward.py) with the tiny
random model in process: real tokenizer, real chat template, real constraint, real adapters written by peft."""

from __future__ import annotations

import threading

import pytest
import torch

from debugrl_native.inference.engine import Engine
from debugrl_native.inference.kv_cache import KVShape, KVStore, SequenceKV
from debugrl_native.inference.models import build_tiny_random
from debugrl_native.inference.protocol import ChatRequest
from test_inference_server import MESSAGES, TOOLS, make_adapter

# Logprobs of the same token may differ by the BLAS kernel's summation order when the batch has other rows.
LOGPROB_TOL = 1e-4


def request(**kw) -> ChatRequest:
    body = {"model": "default", "messages": MESSAGES, "tools": TOOLS, "tool_choice": "required", "max_tokens": 40,
            "temperature": 1.0, "seed": 0, "logprobs": True, "top_logprobs": 2, "return_token_ids": True}
    body.update(kw)
    return ChatRequest.model_validate(body)


def conversation(i: int, turns: int) -> list[dict]:
    """A conversation that grows like an episode: each turn adds the model's call and a tool result."""
    msgs = [{"role": "system", "content": "You fix Python bugs with a debugger."},
            {"role": "user", "content": f"test_{i} fails. Look at mod{i}.py and find the bug number {i * 37}."}]
    for t in range(turns):
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{t}", "type": "function", "function": {"name": "read_file", "arguments": f'{{"path": "f{t}.py"}}'}}]})
        msgs.append({"role": "tool", "tool_call_id": f"c{t}", "content": f"line {t}: x = {i * t}\n" * 3})
    return msgs


def together(engine: Engine, reqs: list[ChatRequest]) -> list[dict]:
    """Submit all requests at once from threads (as an HTTP server would) and collect the replies in order."""
    out: list[dict | BaseException] = [None] * len(reqs)  # type: ignore[list-item]
    barrier = threading.Barrier(len(reqs))

    def run(i: int) -> None:
        barrier.wait()
        try:
            out[i] = engine.complete(reqs[i])
        except BaseException as e:  # noqa: BLE001 - re-raised below in the test's thread
            out[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(reqs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    for o in out:
        if isinstance(o, BaseException):
            raise o
    return out  # type: ignore[return-value]


def tokens_and_logprobs(reply: dict) -> tuple[list[int], list[float], list[list[float]]]:
    choice = reply["choices"][0]
    entries = choice["logprobs"]["content"]
    return (choice["token_ids"], [e["logprob"] for e in entries],
            [[t["logprob"] for t in e["top_logprobs"]] for e in entries])


@pytest.mark.slow
def test_a_request_gives_the_same_tokens_alone_and_inside_a_batch():
    """Same seed, same tokens; logprobs equal within LOGPROB_TOL. The batch mixes constrained and free requests,
    temperatures, forced runs, chunked prefills (step_tokens 24 splits every prompt) and different prompt lengths."""
    probe = [request(seed=11), request(seed=12, tool_choice="auto", max_tokens=25, temperature=0.7),
             request(seed=13, messages=conversation(1, 2), temperature=0.0)]
    others = [request(seed=s, messages=conversation(s, s % 3), max_tokens=30 + s) for s in range(5)]
    alone = []
    for r in probe:
        engine = Engine(build_tiny_random(), prefix_cache=False)
        alone.append(engine.complete(r))
    batched_engine = Engine(build_tiny_random(), prefix_cache=False, step_tokens=24)
    batched = together(batched_engine, others[:2] + probe + others[2:])[2:5]
    assert batched_engine.scheduler.stats.max_active >= 4  # they really decoded together
    for a, b in zip(alone, batched):
        ta, la, topa = tokens_and_logprobs(a)
        tb, lb, topb = tokens_and_logprobs(b)
        assert ta == tb
        assert la == pytest.approx(lb, abs=LOGPROB_TOL)
        assert [x for row in topa for x in row] == pytest.approx([x for row in topb for x in row], abs=LOGPROB_TOL)
        calls = [[c["function"] for c in r["choices"][0]["message"]["tool_calls"]] for r in (a, b)]
        assert calls[0] == calls[1] and a["choices"][0]["finish_reason"] == b["choices"][0]["finish_reason"]


@pytest.mark.slow
def test_cached_turns_give_the_same_reply_as_a_fresh_prefill_and_report_usage():
    cached, fresh = Engine(build_tiny_random()), Engine(build_tiny_random(), prefix_cache=False)
    first = cached.complete(request(messages=conversation(3, 0)))
    usage = first["usage"]
    assert usage["prompt_tokens_details"] == {"cached_tokens": 0}
    assert usage["debugrl"] == {"cached_tokens": 0, "prefilled_tokens": usage["prompt_tokens"], "stale_kv_tokens": 0}
    nxt = request(messages=conversation(3, 1), seed=5)
    reused, again = cached.complete(nxt), fresh.complete(nxt)
    u = reused["usage"]["debugrl"]
    assert u["cached_tokens"] > usage["prompt_tokens"] // 2 and u["stale_kv_tokens"] == 0
    assert u["cached_tokens"] + u["prefilled_tokens"] == reused["usage"]["prompt_tokens"]
    assert reused["usage"]["prompt_tokens_details"]["cached_tokens"] == u["cached_tokens"]
    ta, la, _ = tokens_and_logprobs(reused)
    tb, lb, _ = tokens_and_logprobs(again)
    assert ta == tb and la == pytest.approx(lb, abs=LOGPROB_TOL)


@pytest.mark.slow
def test_each_conversation_keeps_its_cache_while_others_run():
    """Four episodes in turn, interleaved: every turn after the first reuses its own conversation's cache."""
    engine = Engine(build_tiny_random())
    for turn in range(3):
        replies = together(engine, [request(messages=conversation(i, turn), seed=i) for i in range(4)])
        for r in replies:
            if turn > 0:
                assert r["usage"]["debugrl"]["cached_tokens"] >= r["usage"]["prompt_tokens"] * 0.6, r["usage"]
    assert engine.store.health()["entries"] >= 4


@pytest.mark.slow
def test_identical_prompts_arriving_together_prefill_once():
    """A GRPO group: the same prompt 4 times at once. One prefills, the others copy its cache."""
    engine = Engine(build_tiny_random())
    prompt_tokens = len(engine.render(request(messages=conversation(9, 2))))
    replies = together(engine, [request(messages=conversation(9, 2), seed=s) for s in range(4)])
    prefilled = sum(r["usage"]["debugrl"]["prefilled_tokens"] for r in replies)
    assert prefilled <= prompt_tokens + 3 * 40  # one full prefill; the others only their last few tokens


def test_store_evicts_the_least_recently_used_within_its_budget():
    shape = KVShape(layers=2, kv_heads=1, head_dim=4, dtype=torch.float32)
    per_token = shape.bytes_per_token()  # 64 bytes
    store = KVStore(shape, budget_bytes=per_token * 25)

    def finished(ids: list[int]) -> SequenceKV:
        kv = SequenceKV(shape.empty(len(ids) + 5))
        kv.data[:, :, :, : len(ids)] = torch.tensor(ids, dtype=torch.float32)[None, None, None, :, None]
        kv.length = len(ids)
        return kv

    a, b, c = list(range(10)), list(range(100, 110)), list(range(200, 210))
    store.put(None, a, finished(a))
    store.put(None, b, finished(b))
    assert store.health()["bytes"] == per_token * 20  # trimmed to the tokens held
    kv, n, stale, key = store.seed(None, a + [7, 7], capacity=20)  # touches a: b is now the oldest
    assert n == 10 and stale == 0 and store.entries[key].ids.tolist() == a and torch.equal(kv.data[0, 0, 0, :10, 0], torch.tensor(a, dtype=torch.float32))
    store.put(None, c, finished(c))
    h = store.health()
    assert h["entries"] == 2 and h["evictions"] == 1 and h["bytes"] <= store.budget_bytes
    assert store.seed(None, b + [1], capacity=20)[1] == 0  # b was evicted
    assert store.seed(None, a + [1], capacity=20)[1] == 10
    # A longer turn of the same conversation replaces the entry it extends, or the entry it was seeded from.
    store.put(None, a + [50, 51], finished(a + [50, 51]))
    assert store.health()["entries"] == 2
    key = store.seed(None, a + [50, 51, 1], capacity=20)[3]
    retokenised = a + [52, 51, 60]
    store.put(None, retokenised, finished(retokenised), replaces=key)
    assert [e.ids.tolist() for e in store.entries.values()][-1] == retokenised and store.health()["entries"] == 2
    # Another owner never matches, and a too-large entry is not kept.
    assert store.seed("a1", a + [50, 51, 1], capacity=20)[1] == 0
    big = list(range(300, 330))
    store.put(None, big, finished(big))
    assert store.seed(None, big + [1], capacity=40)[1] == 0


@pytest.mark.slow
def test_no_turn_reuses_kv_of_another_adapter_version(tmp_path):
    make_adapter(tmp_path / "v1", version=1, seed=1)
    make_adapter(tmp_path / "v2", version=2, seed=2)
    engine = Engine(build_tiny_random())
    fresh = Engine(build_tiny_random(), prefix_cache=False)
    engine.load_adapter("pol", str(tmp_path / "v1"))
    engine.complete(request(model="pol", messages=conversation(4, 0)))
    second = engine.complete(request(model="pol", messages=conversation(4, 1)))
    assert second["usage"]["debugrl"]["cached_tokens"] > 0 and second["policy_version"] == 1

    # v2 published under the same name mid-conversation: the next turn prefills from the start.
    engine.load_adapter("pol", str(tmp_path / "v2"))
    third = engine.complete(request(model="pol", messages=conversation(4, 2)))
    assert third["policy_version"] == 2
    assert third["usage"]["debugrl"] == {"cached_tokens": 0, "prefilled_tokens": third["usage"]["prompt_tokens"],
                                         "stale_kv_tokens": 0}
    fresh.load_adapter("pol", str(tmp_path / "v2"))
    ref = fresh.complete(request(model="pol", messages=conversation(4, 2)))
    assert tokens_and_logprobs(third)[0] == tokens_and_logprobs(ref)[0]

    # v2 under another name, and the base model: neither sees pol's caches.
    engine.load_adapter("pol-v2", str(tmp_path / "v2"))
    other = engine.complete(request(model="pol-v2", messages=conversation(4, 3)))
    base = engine.complete(request(messages=conversation(4, 3)))
    assert other["usage"]["debugrl"]["cached_tokens"] == 0 and base["usage"]["debugrl"]["cached_tokens"] == 0
    assert engine.health()["kv_cache"]["stale_kv_tokens"] == 0

    # Unloading drops the adapter's cache entries.
    owner = engine.adapters.owner("pol")
    assert any(e.owner == owner for e in engine.store.entries.values())
    engine.unload_adapter("pol")
    assert all(e.owner != owner for e in engine.store.entries.values())
