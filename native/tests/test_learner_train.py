"""A tiny MoE learns on synthetic trajectories; the step reports its metrics and refuses stale samples."""

import pytest
import torch

from debugrl_native.learner.config import LearnerConfig, LoraConfig, LossConfig, OptimConfig
from debugrl_native.learner.lora import read_adapter_version
from debugrl_native.learner.synthetic import fill_rollout_logprobs, synthetic_batch
from debugrl_native.learner.train import Learner


def _learner(tmp_path, **loss):
    cfg = LearnerConfig(lora=LoraConfig(rank=4, alpha=8.0), optim=OptimConfig(lr=3e-3),
                        loss=LossConfig(**({"max_policy_lag": 100} | loss)), output_dir=tmp_path)
    return Learner(cfg)


@pytest.mark.slow
def test_tiny_moe_loss_falls_over_a_few_steps(tmp_path):
    learner = _learner(tmp_path)
    batch = fill_rollout_logprobs(learner.model, synthetic_batch(learner.vocab_size, sft_examples=2, seed=1))
    metrics = [learner.train_step(batch) for _ in range(5)]
    first, last = metrics[0], metrics[-1]
    # on-policy at step 1: the ratio to the stored logprobs is 1 up to float noise, so nothing is clipped
    assert abs(first.ratio_mean - 1.0) < 1e-4 and first.clip_frac_high == 0.0
    assert last.loss_total < first.loss_total - 0.05
    assert last.loss_policy < first.loss_policy and last.loss_bc < first.loss_bc
    assert last.kl_mean > first.kl_mean  # the policy moved away from the reference
    assert first.chains == 8 and first.trajectories_trained == 8  # 2 groups x 4, two turns each -> one chain each
    assert learner.version == 5 and read_adapter_version(learner.adapter_path) == 5
    assert first.tokens_per_s > 0 and first.peak_memory_bytes > 0


def test_stale_samples_are_dropped_and_counted(tmp_path):
    learner = _learner(tmp_path, max_policy_lag=4)
    learner.version = 10
    fresh = synthetic_batch(learner.vocab_size, groups=1, policy_version=6, seed=2)  # lag 4: kept
    stale = synthetic_batch(learner.vocab_size, groups=1, policy_version=5, seed=3)  # lag 5: refused
    m = learner.train_step(fresh.model_copy(update={"groups": fresh.groups + stale.groups}))
    assert m.stale_trajectories_dropped == 4 and m.trajectories_trained == 4
    assert learner.version == 11
    # the learner names what it left out: the one policy-lag rule, which the TypeScript step only counts
    assert [(d.trajectory_id, d.group_id, d.reason, d.lag) for d in learner.last_dropped] == [
        (t.trajectory_id, stale.groups[0].group_id, "policy-lag", 5) for t in stale.groups[0].trajectories]


def test_grouped_and_loop_experts_give_the_same_update(tmp_path):
    batch = None
    grads = {}
    for impl in ("grouped", "loop"):
        cfg = LearnerConfig(lora=LoraConfig(rank=4, alpha=8.0), experts_impl=impl, output_dir=tmp_path / impl)
        learner = Learner(cfg)
        batch = batch or fill_rollout_logprobs(learner.model, synthetic_batch(learner.vocab_size, seed=4))
        m = learner.train_step(batch)
        grads[impl] = (m.loss_total, [p.detach().clone() for p in learner.adapter_params])
    assert abs(grads["grouped"][0] - grads["loop"][0]) < 1e-5
    for a, b in zip(grads["grouped"][1], grads["loop"][1]):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-6)
