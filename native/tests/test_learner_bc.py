"""The behaviour-cloning anchor on replayed SFT examples: a zero weight is the step without them, bit for bit; with a
weight the BC loss falls over steps, and it keeps the SFT examples likelier than RL alone does."""

import torch
from safetensors.torch import load_file

from debugrl_native.learner.config import LearnerConfig, LoraConfig, LossConfig, OptimConfig
from debugrl_native.learner.sft import sft_eval
from debugrl_native.learner.synthetic import fill_rollout_logprobs, synthetic_batch
from debugrl_native.learner.train import Learner


def _learner(out, bc_coef: float) -> Learner:
    return Learner(LearnerConfig(lora=LoraConfig(rank=4, alpha=8.0), optim=OptimConfig(lr=3e-3),
                                 loss=LossConfig(max_policy_lag=100, bc_coef=bc_coef), output_dir=out))


def _batches(learner: Learner, seed: int):
    with_bc = synthetic_batch(learner.vocab_size, sft_examples=4, seed=seed)
    with_bc = fill_rollout_logprobs(learner.model, with_bc)
    return with_bc, with_bc.model_copy(update={"sft_examples": []})


def test_a_zero_bc_weight_equals_a_step_without_the_corpus(tmp_path):
    a, b = _learner(tmp_path / "a", 0.0), _learner(tmp_path / "b", 0.0)
    with_bc, without = _batches(a, seed=3)
    ma, mb = a.train_step(with_bc), b.train_step(without)
    assert ma.sft_examples_trained == 0 and ma.loss_bc == 0.0 and ma.bc_loss_tokens == 0
    assert ma.loss_policy == mb.loss_policy and ma.tokens == mb.tokens
    ta, tb = load_file(str(a.adapter_path / "adapter_model.safetensors")), load_file(str(b.adapter_path / "adapter_model.safetensors"))
    assert ta.keys() == tb.keys()
    for k in ta:
        assert torch.equal(ta[k], tb[k]), k
    # and a nonzero weight does change the update (the test above could not pass by ignoring the examples anyway)
    c = _learner(tmp_path / "c", 0.5)
    mc = c.train_step(with_bc)
    assert mc.sft_examples_trained == 4 and mc.loss_bc > 0
    tc = load_file(str(c.adapter_path / "adapter_model.safetensors"))
    assert any(not torch.equal(ta[k], tc[k]) for k in ta)


def test_with_a_weight_the_bc_loss_falls_and_anchors_the_sft_examples(tmp_path):
    anchored, free = _learner(tmp_path / "anchored", 0.5), _learner(tmp_path / "free", 0.0)
    with_bc, _ = _batches(anchored, seed=4)
    losses = [anchored.train_step(with_bc).loss_bc for _ in range(6)]
    for _ in range(6):
        free.train_step(with_bc)
    assert losses[-1] < losses[0] - 0.05, losses
    nll_anchored, _ = sft_eval(anchored, list(with_bc.sft_examples))
    nll_free, _ = sft_eval(free, list(with_bc.sft_examples))
    assert nll_anchored < nll_free - 0.05, (nll_anchored, nll_free)
