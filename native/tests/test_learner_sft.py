"""SFT: assistant-only masks on SmolLM2's real tokenizer, the tokens/mask checks, and an SFT step on a tiny model
that lowers held-out loss (also through the learner service as a subprocess)."""

import json
import random
import subprocess
import sys

import pytest

from debugrl_native.inference.models import load_tokenizer
from debugrl_native.inference.tool_format import call_text
from debugrl_native.learner.config import LearnerConfig, LoraConfig, OptimConfig
from debugrl_native.learner.protocol import SftExample
from debugrl_native.learner.sft import MaskError, check_example, render_with_mask, sft_eval, sft_step, tokenize_corpus
from debugrl_native.learner.train import Learner

TOOLS = [{"type": "function", "function": {"name": "run_tests", "description": "Run pytest.",
                                            "parameters": {"type": "object", "properties": {}}}},
         {"type": "function", "function": {"name": "done", "description": "End.",
                                           "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}}}}]


def _call(i, name, args):
    return {"role": "assistant", "content": "thinking aloud", "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}


CONVERSATION = [
    {"role": "system", "content": "SYSTEM-TEXT fix the bug"},
    {"role": "user", "content": "USER-TEXT the tests fail"},
    _call(1, "run_tests", {}),
    {"role": "tool", "tool_call_id": "c1", "content": "TOOL-TEXT 1 failed"},
    _call(2, "run_tests", {}),
    {"role": "tool", "tool_call_id": "c2", "content": "TOOL-TEXT 2 passed"},
    _call(3, "done", {"summary": "fixed"}),
]


@pytest.fixture(scope="module")
def tok():
    return load_tokenizer()


def _runs(ids, mask):
    """Contiguous trained runs of token ids."""
    runs, cur = [], []
    for t, m in zip(ids, mask):
        if m:
            cur.append(t)
        elif cur:
            runs.append(cur)
            cur = []
    return runs + ([cur] if cur else [])


def test_every_assistant_token_and_end_of_turn_is_trained_and_nothing_else(tok):
    ids, mask = render_with_mask(tok, CONVERSATION, TOOLS)
    end = tok.convert_tokens_to_ids("<|im_end|>")
    runs = _runs(ids, mask)
    expected = [call_text("run_tests", {}), call_text("run_tests", {}), call_text("done", {"summary": "fixed"})]
    assert [tok.decode(r) for r in runs] == [e + "<|im_end|>" for e in expected]
    assert all(r[-1] == end for r in runs)
    # every untrained token belongs to the system, user or tool turns or to the turn headers
    untrained = tok.decode([t for t, m in zip(ids, mask) if not m])
    for text in ("SYSTEM-TEXT", "USER-TEXT", "TOOL-TEXT 1 failed", "TOOL-TEXT 2 passed", "<tools>"):
        assert text in untrained
    for r in runs:
        assert "TEXT" not in tok.decode(r) and "<|im_start|>" not in tok.decode(r)
    # the assistant's free text is dropped by default (the constrained server writes only the call) …
    assert "thinking aloud" not in tok.decode(ids)
    # … and kept, and trained, when asked
    ids2, mask2 = render_with_mask(tok, CONVERSATION, TOOLS, calls_only=False)
    assert tok.decode(_runs(ids2, mask2)[0]).startswith("thinking aloud\n<tool_call>")


def test_microskill_masks_earlier_context(tok):
    ids, mask = render_with_mask(tok, CONVERSATION, TOOLS, train_from_message=4)
    runs = _runs(ids, mask)
    assert len(runs) == 2  # only the window's two replies; the first reply is context
    assert tok.decode(runs[-1]).startswith(call_text("done", {"summary": "fixed"}))


def test_tokens_and_masks_that_disagree_are_refused(tmp_path):
    with pytest.raises(MaskError, match="3 tokens but 2 mask flags"):
        check_example({"example_id": "x", "token_ids": [1, 2, 3], "assistant_mask": [False, True]})
    with pytest.raises(MaskError, match="no token is trained"):
        check_example({"example_id": "x", "token_ids": [1, 2], "assistant_mask": [False, False]})
    (tmp_path / "tools.json").write_text("[]")
    (tmp_path / "examples.jsonl").write_text(json.dumps({
        "exampleId": "bad", "heldOut": False, "messages": [], "trainFromMessage": 0,
        "storedTokens": {"tokenIds": [1, 2, 3], "assistantMask": [False, True]}}) + "\n")
    with pytest.raises(MaskError, match="3 tokens but 2 mask flags"):
        tokenize_corpus(tmp_path, tokenizer=object())
    assert not (tmp_path / "train.tokens.jsonl").exists()  # nothing half-written
    (tmp_path / "examples.jsonl").write_text("")
    with pytest.raises(MaskError, match="empty corpus"):
        tokenize_corpus(tmp_path, tokenizer=object())


REPLY = [7, 19, 3, 88, 41, 5, 60, 12, 99, 23, 70, 2]  # a fixed "format" every reply follows, like a call's prefix


def _copy_examples(n, seed, vocab=128):
    """Prompt: 12 random tokens; reply (trained): the fixed REPLY. Held-out examples have other prompts, so a falling
    held-out loss means the model learned the reply, not the examples."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        p = [rng.randrange(2, vocab) for _ in range(12)]
        out.append(SftExample(example_id=f"{seed}-{i}", token_ids=[1] + p + REPLY, assistant_mask=[False] * 13 + [True] * 12))
    return out


@pytest.mark.slow
def test_sft_step_lowers_held_out_loss_on_a_tiny_model(tmp_path):
    cfg = LearnerConfig(lora=LoraConfig(rank=8, alpha=16.0), optim=OptimConfig(lr=1e-2), output_dir=tmp_path)
    learner = Learner(cfg)
    train, held = _copy_examples(32, seed=1), _copy_examples(8, seed=2)
    before, tokens = sft_eval(learner, held)
    assert tokens == 8 * 12
    for _ in range(40):
        m = sft_step(learner, train, lr=1e-2)
        assert m.tokens == 32 * 12 and m.microbatches == 1
    after, _ = sft_eval(learner, held)
    assert after < before * 0.8, (before, after)


@pytest.mark.slow
def test_sft_requests_through_the_service(tmp_path):
    cfg = tmp_path / "learner.json"
    cfg.write_text(json.dumps({"lora": {"rank": 4, "alpha": 8.0}, "output_dir": str(tmp_path / "out")}))
    data = tmp_path / "train.tokens.jsonl"
    data.write_text("".join(json.dumps(e.model_dump()) + "\n" for e in _copy_examples(8, seed=3)))
    reqs = [
        {"type": "sft_eval", "request_id": "e0", "examples_path": str(data)},
        {"type": "sft_step", "request_id": "s1", "examples_path": str(data), "lr": 0.01},
        {"type": "sft_step", "request_id": "s2", "examples_path": str(tmp_path / "missing.jsonl"), "lr": 0.01},
        {"type": "save_adapter", "request_id": "a1", "name": "sft-v1"},
        {"type": "shutdown", "request_id": "x"},
    ]
    proc = subprocess.run([sys.executable, "-m", "debugrl_native.learner.service", "--config", str(cfg)],
                          input="".join(json.dumps(r) + "\n" for r in reqs), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    _, e0, s1, s2, a1, _ = [json.loads(x) for x in proc.stdout.splitlines()]
    assert e0["type"] == "sft_eval_result" and e0["tokens"] == 96 and e0["loss"] > 0
    assert s1["type"] == "sft_step_result" and s1["tokens"] == 96
    assert (s2["type"], s2["error_kind"]) == ("error", "invalid_request") and "does not exist" in s2["message"]
    assert a1["adapter_path"].endswith("sft-v1") and (tmp_path / "out" / "sft-v1" / "adapter_model.safetensors").is_file()


def test_lr_schedule_warms_up_linearly_then_decays_by_cosine():
    from debugrl_native.learner.sft import lr_at

    # 2 warm-up steps of 10: peak/3, 2 peak/3, then cosine from the peak down to the 1 % floor at the last step
    assert [round(lr_at(s, 10, 3.0, 2), 6) for s in (0, 1, 2)] == [1.0, 2.0, 3.0]
    assert lr_at(2 + 7 // 2, 10, 1.0, 2) < 1.0
    assert lr_at(9, 10, 1.0, 2) == pytest.approx(0.01)  # cos(pi) = -1: 0, floored at 1 %
    assert lr_at(0, 1, 1.0, 0) == 1.0  # a one-step run trains at the peak


def test_epoch_order_is_a_fixed_shuffle_per_seed_and_epoch():
    from debugrl_native.learner.sft import epoch_order

    assert sorted(epoch_order(20, 3, 1)) == list(range(20))
    assert epoch_order(20, 3, 1) == epoch_order(20, 3, 1)
    assert epoch_order(20, 3, 1) != epoch_order(20, 3, 2)
    assert epoch_order(20, 3, 1) != epoch_order(20, 4, 1)


@pytest.mark.slow
def test_sft_epoch_is_one_request_with_progress_and_a_saved_adapter(tmp_path):
    cfg = tmp_path / "learner.json"
    cfg.write_text(json.dumps({"lora": {"rank": 4, "alpha": 8.0}, "output_dir": str(tmp_path / "out")}))
    train, held = tmp_path / "train.tokens.jsonl", tmp_path / "heldout.tokens.jsonl"
    train.write_text("".join(json.dumps(e.model_dump()) + "\n" for e in _copy_examples(5, seed=3)))
    held.write_text("".join(json.dumps(e.model_dump()) + "\n" for e in _copy_examples(2, seed=4)))
    reqs = [
        {"type": "sft_epoch", "request_id": "p1", "train_path": str(train), "heldout_path": str(held), "epoch": 1,
         "epochs": 2, "lr": 0.01, "batch_examples": 2, "warmup_steps": 0, "seed": 7},
        {"type": "sft_epoch", "request_id": "p3", "train_path": str(train), "epoch": 3, "epochs": 2},
        {"type": "shutdown", "request_id": "x"},
    ]
    proc = subprocess.run([sys.executable, "-m", "debugrl_native.learner.service", "--config", str(cfg)],
                          input="".join(json.dumps(r) + "\n" for r in reqs), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(x) for x in proc.stdout.splitlines()][1:]
    progress = [m for m in lines if m["type"] == "progress"]
    assert [(m["request_id"], m["step"], m["of"]) for m in progress] == [("p1", 1, 3), ("p1", 2, 3), ("p1", 3, 3)]
    done = next(m for m in lines if m["type"] == "sft_epoch_result")
    assert (done["epoch"], done["steps"], done["policy_version"]) == (1, 3, 3)
    assert done["train_loss"] > 0 and done["held_out_loss"] > 0
    assert (tmp_path / "out" / "epoch-1" / "adapter_model.safetensors").is_file()
    bad = next(m for m in lines if m.get("request_id") == "p3")
    assert (bad["type"], bad["error_kind"]) == ("error", "invalid_request") and "past the last one" in bad["message"]
