"""Tokens that constrained decoding forced stay out of the loss (LossConfig.train_forced_tokens = False).

The server marks a completion token forced when the grammar allowed only it (the tool-call prefix and suffix, EOS).
Under the sampling distribution such a token has probability 1, so its raw logprob is not a choice the advantage can
credit; trained on, it only adds advantage-weighted noise (benchmarks/learning-test.md).
"""

import pytest
import torch
from pydantic import ValidationError
from safetensors.torch import load_file

from debugrl_native.learner.config import LearnerConfig, LoraConfig, LossConfig, OptimConfig
from debugrl_native.learner.protocol import Step, TrainBatch
from debugrl_native.learner.synthetic import fill_rollout_logprobs, synthetic_batch
from debugrl_native.learner.train import Learner, prepare_batch


def _learner(out, train_forced: bool) -> Learner:
    return Learner(LearnerConfig(lora=LoraConfig(rank=4, alpha=8.0), optim=OptimConfig(lr=3e-3),
                                 loss=LossConfig(max_policy_lag=100, kl_coef=0.0, train_forced_tokens=train_forced),
                                 output_dir=out))


def _mark(batch: TrainBatch, forced_logprob: float | None = None) -> TrainBatch:
    """Mark the first and last completion token of every step forced; optionally overwrite their stored logprob."""
    groups = []
    for g in batch.groups:
        trajs = []
        for t in g.trajectories:
            steps = []
            for s in t.steps:
                n = len(s.completion_ids)
                forced = [k in (0, n - 1) for k in range(n)]
                lps = [forced_logprob if (f and forced_logprob is not None) else lp
                       for f, lp in zip(forced, s.completion_logprobs)]
                steps.append(s.model_copy(update={"completion_forced": forced, "completion_logprobs": lps}))
            trajs.append(t.model_copy(update={"steps": steps}))
        groups.append(g.model_copy(update={"trajectories": trajs}))
    return batch.model_copy(update={"groups": groups})


def _adapter(learner: Learner) -> dict[str, torch.Tensor]:
    return load_file(str(learner.adapter_path / "adapter_model.safetensors"))


def test_forced_tokens_leave_the_loss_mask_and_the_token_count():
    cfg = LearnerConfig(loss=LossConfig(max_policy_lag=100))
    batch = _mark(synthetic_batch(1000, groups=1, group_size=2, turns=1, completion_len=(5, 5), seed=1))
    prep = prepare_batch(batch, cfg, 0, 1000)
    for item in prep.items:
        chain = item.sequences[0].chain
        prompt = len(chain.tokens) - 5
        assert chain.loss_mask[prompt:] == [False, True, True, True, False]
        assert item.tags_of(0).shape[0] == 3  # one mismatch bucket row per trained token
    assert prep.response_tokens.tolist() == [3, 3]
    kept = prepare_batch(batch, cfg.model_copy(update={"loss": cfg.loss.model_copy(update={"train_forced_tokens": True})}),
                         0, 1000)
    assert kept.response_tokens.tolist() == [5, 5]


def test_a_reply_the_grammar_wrote_whole_is_not_trained():
    batch = synthetic_batch(1000, groups=1, group_size=2, turns=1, completion_len=(4, 4), seed=2)
    steps = batch.groups[0].trajectories[0].steps
    whole = steps[0].model_copy(update={"completion_forced": [True] * 4})
    trajs = [batch.groups[0].trajectories[0].model_copy(update={"steps": [whole]}), batch.groups[0].trajectories[1]]
    batch = batch.model_copy(update={"groups": [batch.groups[0].model_copy(update={"trajectories": trajs})]})
    prep = prepare_batch(batch, LearnerConfig(loss=LossConfig(max_policy_lag=100)), 0, 1000)
    assert prep.response_tokens.tolist() == [4]


def test_the_stored_logprob_of_a_forced_token_cannot_move_the_update(tmp_path):
    # Same batch, except the forced tokens' stored logprobs: far off-policy in one copy. Left out of the loss, they
    # change neither the off-policy weights nor the gradient, so both learners end bit-identical ...
    a, b = _learner(tmp_path / "a", False), _learner(tmp_path / "b", False)
    base = fill_rollout_logprobs(a.model, synthetic_batch(a.vocab_size, seed=5))
    a.train_step(_mark(base))
    b.train_step(_mark(base, forced_logprob=-9.0))
    ta, tb = _adapter(a), _adapter(b)
    assert all(torch.equal(ta[k], tb[k]) for k in ta)
    # ... while a learner that trains on forced tokens does see them (the test above could not pass by accident).
    c, d = _learner(tmp_path / "c", True), _learner(tmp_path / "d", True)
    c.train_step(_mark(base))
    d.train_step(_mark(base, forced_logprob=-9.0))
    tc, td = _adapter(c), _adapter(d)
    assert any(not torch.equal(tc[k], td[k]) for k in tc)


def test_forced_flags_must_match_the_completion():
    with pytest.raises(ValidationError, match="2 forced flags"):
        Step(prompt_ids=[1, 2], completion_ids=[3, 4, 5], completion_logprobs=[-1.0] * 3, completion_forced=[True, False],
             policy_version=0)
