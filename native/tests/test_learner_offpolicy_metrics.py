"""Mismatch metrics (mismatch.py) against hand-computed values, a train step that reports them by lag, and the
TensorBoard event files they are written to."""

import math

import pytest
import torch

from debugrl_native.learner.config import LearnerConfig, LoraConfig, LossConfig, OptimConfig, TokenMaskCorrection
from debugrl_native.learner.event_log import EventLog, scalars
from debugrl_native.learner.loss import Correction
from debugrl_native.learner.mismatch import (
    MismatchSums,
    accumulate,
    k3,
    summarize,
    trajectory_tags,
    turn_bucket,
)
from debugrl_native.learner.synthetic import fill_rollout_logprobs, synthetic_batch
from debugrl_native.learner.train import Learner

LN2 = math.log(2.0)


def test_k3_is_kl_served_to_learner_per_token():
    # rho = 2: 2 - 1 - ln 2 = 0.30685;  rho = 1/2: 0.5 - 1 + ln 2 = 0.19315;  rho = 1: 0
    assert k3(torch.tensor([LN2, -LN2, 0.0])).tolist() == pytest.approx([1 - LN2, LN2 - 0.5, 0.0])
    # rho = inf is bounded (log rho clamped to 20): e^20 - 21, finite
    assert float(k3(torch.tensor([float("inf")]))) == pytest.approx(math.exp(20) - 21)


def test_buckets_and_tags():
    assert [turn_bucket(t) for t in (0, 1, 2, 3, 4, 7, 8, 15, 16, 50)] == [0, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    # versions [5, 4, 4], completion lengths [2, 1, 0], learner at 6: lags [1, 1, 2] -> tokens (1,0), (1,0), (2,1);
    # 3 completion tokens in all -> length bucket 0 (< 256)
    assert trajectory_tags([5, 4, 4], [2, 1, 0], 6).tolist() == [[1, 0, 0], [1, 0, 0], [2, 1, 0]]
    # lag 9 goes to the last lag bucket (4+); 300 tokens to length bucket 1
    assert trajectory_tags([0], [300], 9)[0].tolist() == [4, 0, 1]


def test_summary_hand_values():
    # 3 tokens: log rho [0, ln 2, -ln 2] -> k3 [0, 1 - ln 2, ln 2 - 0.5], sum 0.5
    # correction weights m = [1, 2, 0]; token 2 masked, token 1 clipped; owners [0, 0, 1]
    # tags (lag, turn, length): (0,0,0), (0,1,0), (1,1,0)
    s = MismatchSums.zeros(2)
    corr = Correction(token_weight=torch.tensor([1.0, 2.0, 0.0]), response_weight=torch.ones(2),
                      masked=torch.tensor([False, False, True]), clipped=torch.tensor([False, True, False]))
    accumulate(s, torch.tensor([0.0, LN2, -LN2]), corr, torch.tensor([[0, 0, 0], [0, 1, 0], [1, 1, 0]]),
               torch.tensor([0, 0, 1]))
    out = summarize(s.vector.tolist(), s.response_tokens.tolist(), s.response_kept.tolist())
    assert out["mismatch_k3"] == pytest.approx(0.5 / 3)
    assert out["mismatch_k3_lag0"] == pytest.approx((1 - LN2) / 2)  # tokens 0 and 1
    assert out["mismatch_k3_by_lag"][:2] == pytest.approx([(1 - LN2) / 2, LN2 - 0.5])
    assert out["mismatch_k3_by_lag"][2:] == [None, None, None]  # nothing measured is not a perfect match
    assert out["offpolicy_ess"] == pytest.approx(9 / 15)  # (1 + 2 + 0)^2 / (3 * (1 + 4 + 0))
    assert out["masked_token_frac"] == pytest.approx(1 / 3)
    assert out["clipped_token_frac"] == pytest.approx(1 / 3)
    assert out["masked_response_frac"] == pytest.approx(1 / 2)  # response 1 has no token left
    assert out["masked_frac_by_lag"][:2] == [0.0, 1.0]
    assert out["mismatch_k3_by_turn"][:2] == pytest.approx([0.0, 0.25])  # turn 1: (1 - ln 2 + ln 2 - 0.5) / 2
    assert out["masked_frac_by_turn"][:2] == [0.0, 0.5]
    assert out["mismatch_k3_by_length"] == pytest.approx([0.5 / 3, None, None, None])


def test_empty_step_summary():
    out = summarize(MismatchSums.zeros(0).vector.tolist(), [], [])
    assert out["mismatch_k3"] is None and out["offpolicy_ess"] == 0.0 and out["masked_response_frac"] == 0.0


def _learner(tmp_path, mode=None):
    loss = LossConfig(max_policy_lag=10, kl_coef=0.0, **({"offpolicy": mode} if mode else {}))
    cfg = LearnerConfig(lora=LoraConfig(rank=4, alpha=8.0), optim=OptimConfig(lr=1e-3), loss=loss,
                        output_dir=tmp_path / "adapters", initial_version=3)
    torch.manual_seed(0)
    return Learner(cfg)


def test_train_step_reports_mismatch_by_lag(tmp_path):
    learner = _learner(tmp_path)
    fresh = fill_rollout_logprobs(learner.model, synthetic_batch(learner.vocab_size, groups=1, policy_version=3, seed=1))
    # the second group's rollouts were "served" at version 1 (lag 2) with logprobs 0.3 nat off on every token
    stale = fill_rollout_logprobs(learner.model, synthetic_batch(learner.vocab_size, groups=1, policy_version=1, seed=2))
    groups = [stale.groups[0].model_copy(update={"group_id": "stale", "trajectories": [
        t.model_copy(update={"steps": [s.model_copy(update={"completion_logprobs": [x - 0.3 for x in s.completion_logprobs]})
                                       for s in t.steps]}) for t in stale.groups[0].trajectories]})]
    m = learner.train_step(fresh.model_copy(update={"groups": fresh.groups + groups}))
    assert m.offpolicy_mode == "seed_clamp"
    # lag 0: the learner scores its own rollouts: k3 ~ 0 (float noise only)
    assert m.mismatch_k3_lag0 == pytest.approx(0.0, abs=1e-6)
    # lag 2: log rho = +0.3 on every token -> k3 = e^0.3 - 1 - 0.3 = 0.04986
    assert m.mismatch_k3_by_lag[2] == pytest.approx(math.exp(0.3) - 1.3, rel=1e-3)
    assert m.mismatch_k3_by_lag[1] is None and m.mismatch_k3_by_lag[3] is None
    # seed_clamp: the stale responses' weight exp(48 * 0.3) hits the 5.0 bound: half the tokens clipped, none masked
    assert m.masked_token_frac == 0.0
    assert 0.3 < m.clipped_token_frac < 0.7
    assert m.mismatch_k3_by_turn[0] is not None and m.mismatch_k3_by_turn[1] is not None  # 2-turn trajectories


def test_token_mask_step_masks_the_far_off_tokens(tmp_path):
    learner = _learner(tmp_path, TokenMaskCorrection(low=0.9, high=1.1))
    batch = fill_rollout_logprobs(learner.model, synthetic_batch(learner.vocab_size, groups=2, policy_version=3, seed=3))
    # group 1's stored logprobs are 0.5 nat below the learner's: rho = e^0.5 = 1.65, outside [0.9, 1.1]
    g1 = batch.groups[1]
    g1 = g1.model_copy(update={"trajectories": [t.model_copy(update={"steps": [
        s.model_copy(update={"completion_logprobs": [x - 0.5 for x in s.completion_logprobs]}) for s in t.steps]})
        for t in g1.trajectories]})
    m = learner.train_step(batch.model_copy(update={"groups": [batch.groups[0], g1]}))
    assert m.offpolicy_mode == "token_mask"
    tokens_g1 = sum(len(s.completion_ids) for t in g1.trajectories for s in t.steps)
    assert m.masked_token_frac == pytest.approx(tokens_g1 / m.rl_loss_tokens)
    assert m.masked_response_frac == pytest.approx(0.5)  # 4 of 8 responses lost every token
    assert 0.0 < m.offpolicy_ess < 1.0


def test_metrics_go_to_tensorboard_event_files(tmp_path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    learner = _learner(tmp_path)
    log = EventLog(tmp_path / "tb")
    for _ in range(2):
        batch = fill_rollout_logprobs(learner.model, synthetic_batch(learner.vocab_size, groups=1,
                                                                     policy_version=learner.version, seed=4))
        m = learner.train_step(batch)
        log.write(learner.version, m)
    log.close()
    acc = EventAccumulator(str(tmp_path / "tb"))
    acc.Reload()
    tags = acc.Tags()["scalars"]
    assert set(scalars(m)) <= set(tags)  # every number of the metrics, bucket lists included
    assert "train/mismatch_k3_by_lag/0" in tags and "train/mismatch_k3_by_lag/4+" not in tags  # empty: left out
    loss = acc.Scalars("train/loss_total")
    assert [e.step for e in loss] == [4, 5]
    assert loss[-1].value == pytest.approx(m.loss_total, rel=1e-6)
