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


def test_the_engine_encodes_exactly_as_the_tokenizer_does():
    engine = Engine(build_tiny_random())
    assert engine._backend_encode is not None  # the fast path is the one under test
    texts = [engine.tokenizer.decode(engine.render(request(messages=conversation(3, 2)))),
             '{"name": "run_tests", "arguments": {"target": "tests/test_ü.py::test_x"}}\n</tool_call>', "  \t\n",
             "日本語 and emoji 🐍", ""]
    for text in texts:
        assert engine.encode(text) == engine.tokenizer(text, add_special_tokens=False)["input_ids"]


def finished(shape: KVShape, ids: list[int]) -> SequenceKV:
    """A finished sequence whose KV at each position holds that position's token id (so copies can be checked)."""
    kv = SequenceKV(shape.empty(len(ids) + 5))
    kv.data[:, :, :, : len(ids)] = torch.tensor(ids, dtype=torch.float32)[None, None, None, :, None]
    kv.length = len(ids)
    return kv


def holds(kv: SequenceKV, ids: list[int]) -> bool:
    return torch.equal(kv.data[1, 1, 0, : len(ids), 3], torch.tensor(ids, dtype=torch.float32))


def test_store_evicts_the_least_recently_used_within_its_budget():
    shape = KVShape(layers=2, kv_heads=1, head_dim=4, dtype=torch.float32)
    per_token = shape.bytes_per_token()  # 64 bytes
    store = KVStore(shape, budget_bytes=per_token * 25)
    a, b, c = list(range(10)), list(range(100, 110)), list(range(200, 210))
    store.put(None, a, finished(shape, a))
    store.put(None, b, finished(shape, b))
    assert store.health()["bytes"] == per_token * 20  # trimmed to the tokens held
    kv, n, stale = store.seed(None, a + [7, 7], capacity=20)  # touches a: b is now the oldest
    assert n == 10 and stale == 0 and holds(kv, a)
    store.put(None, c, finished(shape, c))
    h = store.health()
    assert h["entries"] == 2 and h["evictions"] == 1 and h["bytes"] <= store.budget_bytes
    assert store.seed(None, b + [1], capacity=20)[1] == 0  # b was evicted
    assert store.seed(None, a + [1], capacity=20)[1] == 10
    # A longer turn of the same conversation extends its branch: only the 2 new tokens are added.
    store.put(None, a + [50, 51], finished(shape, a + [50, 51]))
    assert store.health()["entries"] == 2 and store.health()["tokens"] == 22
    # Another owner never matches, and a sequence too large for the budget is not kept.
    assert store.seed("a1", a + [50, 51, 1], capacity=20)[1] == 0
    big = list(range(300, 330))
    store.put(None, big, finished(shape, big))
    assert store.seed(None, big + [1], capacity=40)[1] == 0


def test_store_holds_a_shared_prefix_once_and_keeps_it_longest():
    """Conversations that open with the same system prompt and tools share one node; the tree splits where they
    diverge, each lookup copies exactly its prefix, and eviction takes the conversations' leaves before the prefix
    they share."""
    shape = KVShape(layers=2, kv_heads=1, head_dim=4, dtype=torch.float32)
    per_token = shape.bytes_per_token()
    store = KVStore(shape, budget_bytes=per_token * 40)
    shared = list(range(1000, 1020))  # 20 tokens: the system prompt and tool list
    one, two, three = shared + [1, 2, 3, 4], shared + [5, 6, 7, 8, 9], shared + [10, 11]
    store.put(None, one, finished(shape, one))
    kv, n, _ = store.seed(None, two, capacity=30)  # a new conversation's first turn
    assert n == 20 and holds(kv, shared)
    store.put(None, two, finished(shape, two))
    h = store.health()
    assert (h["entries"], h["nodes"], h["tokens"], h["sequence_tokens"]) == (2, 3, 29, 49)
    kv, n, _ = store.seed(None, one + [42], capacity=30)  # the first conversation's next turn, across the split
    assert n == len(one) and holds(kv, one)
    assert store.match_length(None, torch.tensor(shared[:7] + [0]), 8) == 7
    # Over budget: the least recently used leaf (two's) goes; the shared prefix stays for the third conversation.
    store.put(None, three + list(range(2000, 2012)), finished(shape, three + list(range(2000, 2012))))
    h = store.health()
    assert h["evictions"] == 1 and h["bytes"] <= store.budget_bytes and h["entries"] == 2
    assert store.seed(None, two, capacity=30)[1] == 20
    assert store.seed(None, one + [42], capacity=30)[1] == len(one)
    # Never across owners: an adapter's tree starts empty however much the base model shares.
    assert store.seed("load-7", one + [42], capacity=30)[1] == 0
    assert store.health()["stale_kv_tokens"] == 0


@pytest.mark.slow
def test_a_new_conversation_reuses_the_prompt_another_one_computed():
    """Episode 2 starts after episode 1 has run two turns and finished: its first turn prefills only what follows the
    shared system prompt and tool list, with the same reply as a fresh prefill. Under an adapter it shares nothing
    with the base model's tree."""
    engine, fresh = Engine(build_tiny_random()), Engine(build_tiny_random(), prefix_cache=False)
    for turn in range(2):
        engine.complete(request(messages=conversation(1, turn), seed=turn))
    prompt = engine.render(request(messages=conversation(2, 0)))
    other = engine.render(request(messages=conversation(1, 0)))
    shared = next(i for i, (x, y) in enumerate(zip(prompt, other)) if x != y)
    assert shared > len(prompt) // 2  # the system prompt and tools are most of a first turn
    reply = engine.complete(request(messages=conversation(2, 0), seed=7))
    u = reply["usage"]["debugrl"]
    assert u["cached_tokens"] == shared and u["prefilled_tokens"] == len(prompt) - shared and u["stale_kv_tokens"] == 0
    assert reply["usage"]["prompt_tokens_details"]["cached_tokens"] == shared
    ref = fresh.complete(request(messages=conversation(2, 0), seed=7))
    ta, la, _ = tokens_and_logprobs(reply)
    tb, lb, _ = tokens_and_logprobs(ref)
    assert ta == tb and la == pytest.approx(lb, abs=LOGPROB_TOL)
    h = engine.store.health()
    assert h["tokens"] < h["sequence_tokens"] - shared // 2  # the shared prefix is held once, not per conversation


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
    assert owner in engine.store.owners()
    engine.unload_adapter("pol")
    assert owner not in engine.store.owners()
