"""The learner fits the memory it is given: microbatch tokens from the budget and the model's size, a batch split into
more microbatches when the budget is small, and a chain that cannot fit refused at once, naming the setting."""

import pytest
import torch
from transformers import LlamaConfig

from debugrl_native.learner.config import LearnerConfig, LoraConfig, PackingConfig, TinyQwen3MoeSource
from debugrl_native.learner.memory import (
    GB,
    MemoryBudgetExceeded,
    current_bytes,
    per_token_bytes,
    plan_from,
    read_peak,
    reset_peak,
)
from debugrl_native.learner.protocol import Group, Step, TrainBatch, Trajectory
from debugrl_native.learner.train import InvalidBatch, Learner

SMOLLM2 = LlamaConfig(vocab_size=49152, hidden_size=576, intermediate_size=1536, num_hidden_layers=30,
                      num_attention_heads=9, num_key_value_heads=3)
# A large vocabulary makes the logits dominate, as on SmolLM2, so a small budget bites on a tiny model.
SRC = TinyQwen3MoeSource(vocab_size=16384, num_hidden_layers=1)


def test_per_token_bytes_on_smollm2():
    ckpt = per_token_bytes(SMOLLM2, torch.float32, checkpointing=True)
    full = per_token_bytes(SMOLLM2, torch.float32, checkpointing=False)
    logits = 6 * 49152 * 4  # 1.18 MB: the logits term dominates with checkpointing
    assert logits < ckpt < 1.15 * logits
    assert full > 1.5 * ckpt  # without checkpointing every one of the 30 layers keeps its activations


def test_plan_caps_microbatches_and_refuses_a_budget_below_the_model():
    plan = plan_from(budget=10 * GB, source="memory_budget_gb", fixed=2 * GB, per_token=1_000_000,
                     packing_max_tokens=16384)
    assert plan.fit_tokens == 8 * GB // 1_000_000 and plan.max_tokens == plan.fit_tokens < 16384
    assert plan_from(100 * GB, "x", 0, 1_000_000, 16384).max_tokens == 16384
    with pytest.raises(MemoryBudgetExceeded, match=r"leaves room for 0 tokens.*raise memory_budget_gb \(it was 1.00 GB"):
        plan_from(budget=1 * GB, source="memory_budget_gb", fixed=2 * GB, per_token=1000, packing_max_tokens=16384)


def test_a_learner_whose_model_does_not_fit_its_budget_fails_at_start(tmp_path):
    with pytest.raises(MemoryBudgetExceeded, match="memory_budget_gb"):
        Learner(LearnerConfig(model=SRC, memory_budget_gb=0.05, output_dir=tmp_path))


def _traj(i: int, tokens: int) -> Trajectory:
    half = tokens // 2
    ids = [(7 * i + j) % 1000 + 1 for j in range(tokens)]
    return Trajectory(trajectory_id=f"t{i}", reward=float(i % 2), steps=[Step(
        prompt_ids=ids[:half], completion_ids=ids[half:], completion_logprobs=[-1.0] * (tokens - half),
        policy_version=0)])


def test_a_small_budget_splits_the_batch_and_refuses_a_chain_that_cannot_fit(tmp_path):
    per_token = per_token_bytes(_config(), torch.float32, checkpointing=True)
    # Room for about 600 tokens beside the model (whose footprint is measured when the learner starts).
    budget = (current_bytes(torch.device("cpu")) + 600 * per_token + 200 * 2**20) / GB
    cfg = LearnerConfig(model=SRC, lora=LoraConfig(rank=2, alpha=4.0), packing=PackingConfig(max_tokens=16384),
                        memory_budget_gb=budget, output_dir=tmp_path)
    learner = Learner(cfg)
    cap = learner.microbatch_tokens
    assert 64 <= cap < 16384 and learner.memory.budget_source == "memory_budget_gb"
    # Split: six trajectories of a third of the cap each take at least two microbatches, none over the cap.
    size = max(cap // 3, 8)
    m = learner.train_step(TrainBatch(groups=[Group(group_id="g", trajectories=[_traj(i, size) for i in range(6)])]))
    assert m.microbatches >= 2 and m.microbatch_max_tokens == cap and m.trajectories_trained == 6
    assert m.memory_budget_bytes == int(budget * GB) and m.peak_memory_bytes <= m.memory_budget_bytes
    # Refused: one chain longer than the cap (but within packing.max_tokens) is refused before any forward.
    version = learner.version
    with pytest.raises(InvalidBatch, match=rf"has {cap + 10} tokens, but a microbatch may hold only {cap}.*memory_budget_gb"):
        learner.train_step(TrainBatch(groups=[Group(group_id="g", trajectories=[_traj(0, cap + 10), _traj(1, 8)])]))
    assert learner.version == version


def _config():
    from debugrl_native.learner.models import qwen3_moe_config

    return qwen3_moe_config(SRC)


def test_peak_is_per_step():
    dev = torch.device("cpu")
    reset_peak(dev)
    big = torch.ones(64 * 2**20 // 4)  # 64 MiB touched
    first, kind = read_peak(dev)
    del big
    reset_peak(dev)
    second, _ = read_peak(dev)
    assert kind == "process_peak_rss" and second < first - 32 * 2**20
