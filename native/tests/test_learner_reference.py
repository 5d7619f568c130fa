"""RL from an init adapter (an SFT adapter): the learner starts from its weights as version 0, the KL reference is
that adapter frozen on the shared base, a resumed learner keeps that reference, and an adapter of another base or
rank is refused before anything trains."""

import json

import pytest
import torch

from debugrl_native.learner.config import LearnerConfig, LoraConfig, LossConfig, OptimConfig
from debugrl_native.learner.lora import (
    adapter_weights_swapped,
    check_adapter_config,
    read_adapter_version,
    save_adapter,
)
from debugrl_native.learner.synthetic import fill_rollout_logprobs, synthetic_batch
from debugrl_native.learner.train import Learner

LORA = LoraConfig(rank=4, alpha=8.0)


def _cfg(out, **kw) -> LearnerConfig:
    return LearnerConfig(lora=LORA, optim=OptimConfig(lr=3e-3), loss=LossConfig(max_policy_lag=100, kl_adaptive=False),
                         output_dir=out, **kw)


@pytest.fixture(scope="module")
def init_adapter(tmp_path_factory):
    """An adapter far from zero (what SFT leaves), saved as another run's version 37."""
    out = tmp_path_factory.mktemp("sft")
    learner = Learner(_cfg(out))
    gen = torch.Generator().manual_seed(11)
    with torch.no_grad():
        for p in learner.adapter_params:
            p.add_(0.3 * torch.randn(p.shape, generator=gen))
    weights = [p.detach().clone() for p in learner.adapter_params]
    path = save_adapter(learner.model, out / "sft-v1", 37, LORA, "debugrl-base")
    return path, weights


def test_the_init_adapter_is_version_0_and_is_written_as_v0(tmp_path, init_adapter):
    path, weights = init_adapter
    learner = Learner(_cfg(tmp_path, init_adapter=path, reference_adapter=path))
    assert learner.version == 0  # the run's version, not the 37 the folder records
    assert learner.adapter_path == tmp_path / "v0" and read_adapter_version(learner.adapter_path) == 0
    for p, w in zip(learner.adapter_params, weights):
        assert torch.equal(p.detach(), w)


def test_kl_at_step_1_is_zero_against_the_init_adapter_and_not_against_the_base(tmp_path, init_adapter):
    path, _ = init_adapter
    on_init = Learner(_cfg(tmp_path / "init", init_adapter=path, reference_adapter=path))
    on_base = Learner(_cfg(tmp_path / "base", init_adapter=path))  # the old reference: adapters off
    batch = fill_rollout_logprobs(on_init.model, synthetic_batch(on_init.vocab_size, seed=5))
    m_init = on_init.train_step(batch)
    m_base = on_base.train_step(batch)
    assert m_init.kl_mean < 1e-6
    assert m_base.kl_mean > 1e-2
    # the policy then moves away from its (unchanged) reference
    later = [on_init.train_step(batch) for _ in range(3)]
    assert later[-1].kl_mean > 10 * max(m_init.kl_mean, 1e-9)
    for r, w in zip(on_init.reference, init_adapter[1]):
        assert torch.equal(r, w)


def test_a_resumed_learner_keeps_the_init_adapter_as_its_reference(tmp_path, init_adapter):
    path, weights = init_adapter
    first = Learner(_cfg(tmp_path, init_adapter=path, reference_adapter=path))
    batch = fill_rollout_logprobs(first.model, synthetic_batch(first.vocab_size, seed=6))
    first.train_step(batch)
    assert first.version == 1
    resumed = Learner(_cfg(tmp_path, init_adapter=path, reference_adapter=path), initial_adapter=first.adapter_path)
    assert resumed.version == 1
    for p, q in zip(resumed.adapter_params, first.adapter_params):
        assert torch.equal(p.detach(), q.detach())  # the trained weights, not the init's
    for r, w in zip(resumed.reference, weights):
        assert torch.equal(r, w)
    # the same next step on both: the same KL to the same reference
    assert abs(resumed.train_step(batch).kl_mean - first.train_step(batch).kl_mean) < 1e-6


def test_swapping_the_reference_in_leaves_the_policy_gradient_alone(tmp_path, init_adapter):
    path, _ = init_adapter
    learner = Learner(_cfg(tmp_path, init_adapter=path))
    ids = torch.tensor([[3, 9, 27, 81 % 128, 5, 7]])
    reference = [torch.zeros_like(p) for p in learner.adapter_params]

    def grads(swap: bool) -> list[torch.Tensor]:
        learner.model.zero_grad(set_to_none=True)
        loss = learner.model(input_ids=ids, use_cache=False).logits.float().logsumexp(-1).sum()
        if swap:
            with torch.no_grad(), adapter_weights_swapped(learner.adapter_params, reference):
                learner.model(input_ids=ids, use_cache=False)
        loss.backward()
        return [p.grad.clone() for p in learner.adapter_params]

    plain, swapped = grads(False), grads(True)
    for a, b in zip(plain, swapped):
        assert torch.equal(a, b)


def test_an_adapter_of_another_rank_or_base_is_refused(tmp_path, init_adapter):
    path, _ = init_adapter
    with pytest.raises(ValueError, match=r"r 4 \(this learner: 8\)"):
        check_adapter_config(path, LoraConfig(rank=8, alpha=8.0), "debugrl-base")
    with pytest.raises(ValueError, match="base_model_name_or_path 'debugrl-base' \\(this learner: 'smollm2'\\)"):
        check_adapter_config(path, LORA, "smollm2")
    with pytest.raises(FileNotFoundError, match="not a PEFT adapter folder"):
        check_adapter_config(tmp_path, LORA, "debugrl-base")
    with pytest.raises(ValueError, match="does not fit this learner"):
        Learner(LearnerConfig(lora=LoraConfig(rank=8, alpha=16.0), output_dir=tmp_path, init_adapter=path))
    assert json.loads((path / "adapter_config.json").read_text())["r"] == 4
