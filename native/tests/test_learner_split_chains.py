"""A trajectory's chains may sit in different microbatches: the loss and its gradient do not change.

The policy term is sum_i c_i w_i (1/N_i) sum_t l_t. Split over microbatches it stays exact when every piece gets the
response's WHOLE token count N_i and its off-policy weight w_i from ALL its tokens (loss.py, "Split responses").
"""

import math

import torch

from debugrl_native.learner.config import LearnerConfig, LoraConfig, LossConfig, OptimConfig, PackingConfig
from debugrl_native.learner.loss import (
    KlInputs,
    OffPolicyInputs,
    PolicyLossInputs,
    kl_penalty,
    offpolicy_weights,
    policy_loss,
)
from debugrl_native.learner.packing import pack
from debugrl_native.learner.synthetic import fill_rollout_logprobs, synthetic_batch
from debugrl_native.learner.train import Learner, _response_homes, prepare_batch

# Two responses of one group (c = 1/2 each). Response 0 has 4 tokens, response 1 has 2.
ROLLOUT = torch.tensor([-1.00, -2.00, -0.50, -1.50, -1.20, -0.70])
NOW = torch.tensor([-0.99, -1.99, -0.51, -1.53, -1.20, -0.70])  # log rho = [.01, .01, -.01, -.03, 0, 0]
REF = torch.tensor([-1.10, -1.90, -0.50, -1.50, -1.00, -0.80])
OWNER = torch.tensor([0, 0, 0, 0, 1, 1])
ADV = torch.tensor([0.5, -0.5])
COEF = torch.tensor([0.5, 0.5])
TOKENS = torch.tensor([4, 2])
# Response 0's chains are split: tokens 0,1 (chain a) with response 1 in microbatch A; tokens 2,3 (chain b) alone in B.
PIECES = [torch.tensor([0, 1, 4, 5]), torch.tensor([2, 3])]


def _loss(idx, logp, **split):
    pol = policy_loss(PolicyLossInputs(logp[idx], ROLLOUT[idx], OWNER[idx], ADV, COEF, **split)).loss
    kl, _ = kl_penalty(KlInputs(logp[idx], REF[idx], OWNER[idx], COEF, split.get("response_tokens")))
    return pol + 0.1 * kl


def test_hand_sized_off_policy_weight_of_a_split_response():
    # response 0: mean log rho = (.01 + .01 - .01 - .03) / 4 = -0.005 -> w = exp(48 * -0.005) = exp(-0.24)
    # chain a alone would give mean 0.01 -> exp(0.48): the weight must come from all four tokens
    w = offpolicy_weights(OffPolicyInputs(NOW - ROLLOUT, OWNER, 2))
    assert math.isclose(float(w[0]), math.exp(-0.24), rel_tol=1e-4)
    assert math.isclose(float(w[1]), 1.0, rel_tol=1e-6)


def test_split_response_gives_the_unpacked_loss_and_gradient():
    logp = NOW.clone().requires_grad_(True)
    whole = _loss(torch.arange(6), logp)
    (g_whole,) = torch.autograd.grad(whole, logp)

    fixed = offpolicy_weights(OffPolicyInputs(NOW - ROLLOUT, OWNER, 2))  # what the scoring pass computes
    fixed[1] = float("nan")  # response 1 is whole in A: its weight comes from A's own tokens
    logp2 = NOW.clone().requires_grad_(True)
    parts = [_loss(idx, logp2, response_tokens=TOKENS, fixed_offpolicy_weight=fixed) for idx in PIECES]
    (g_split,) = torch.autograd.grad(sum(parts), logp2)
    torch.testing.assert_close(sum(parts), whole, rtol=1e-6, atol=1e-7)
    torch.testing.assert_close(g_split, g_whole, rtol=1e-6, atol=1e-7)
    assert g_whole.abs().min() > 0  # every token carries gradient, so the comparison covers all of them

    # and the test can fail: pieces that average and weight only their own tokens give another loss
    logp3 = NOW.clone().requires_grad_(True)
    naive = sum(_loss(idx, logp3) for idx in PIECES)
    assert abs(float(naive.detach()) - float(whole.detach())) > 1e-3


def _learner(tmp_path, max_tokens):
    cfg = LearnerConfig(lora=LoraConfig(rank=4, alpha=8.0), optim=OptimConfig(lr=1.0, max_grad_norm=1e9),
                        loss=LossConfig(max_policy_lag=100, kl_coef=0.05), packing=PackingConfig(max_tokens=max_tokens),
                        output_dir=tmp_path)
    learner = Learner(cfg)
    # plain SGD with lr 1: the update is exactly minus the gradient, so equal updates mean equal gradients
    learner.optimizer = torch.optim.SGD(learner.adapter_params, lr=1.0)
    return learner


def _two_chain_batch(learner):
    batch = fill_rollout_logprobs(learner.model, synthetic_batch(learner.vocab_size, groups=2, group_size=3, seed=7))
    g0 = batch.groups[0]
    t0 = g0.trajectories[0]
    s0, s1 = t0.steps
    # re-templated history (first token changed) -> step 2 starts a second chain; shift the stored logprobs so that
    # each chain drifts differently (w from one chain alone would be wrong)
    retemplated = s1.model_copy(update={"prompt_ids": [(s1.prompt_ids[0] + 1) % learner.vocab_size, *s1.prompt_ids[1:]],
                                        "completion_logprobs": [x - 0.02 for x in s1.completion_logprobs]})
    first = s0.model_copy(update={"completion_logprobs": [x + 0.01 for x in s0.completion_logprobs]})
    t0 = t0.model_copy(update={"steps": [first, retemplated]})
    return batch.model_copy(update={"groups": [g0.model_copy(update={"trajectories": [t0, *g0.trajectories[1:]]}),
                                               *batch.groups[1:]]})


def test_chains_spread_over_microbatches_give_the_same_update(tmp_path):
    results = {}
    batch = None
    for name, max_tokens in (("together", 4096), ("spread", 24)):
        learner = _learner(tmp_path / name, max_tokens)
        batch = batch or _two_chain_batch(learner)
        prep = prepare_batch(batch, learner.cfg, learner.version, learner.vocab_size)
        _, split = _response_homes(prep, pack([it.tokens for it in prep.items], max_tokens))
        before = [p.detach().clone() for p in learner.adapter_params]
        m = learner.train_step(batch)
        results[name] = (m, split, [b - p.detach() for b, p in zip(before, learner.adapter_params)])
    (m_t, split_t, g_t), (m_s, split_s, g_s) = results["together"], results["spread"]
    assert m_t.chains == m_s.chains == 7  # 6 trajectories, one of them two chains
    assert split_t == [] and split_s == [0]  # response 0's chains are in different microbatches only when spread
    assert m_s.microbatches > m_t.microbatches == 1
    assert m_s.too_long_trajectories_dropped == 0  # before, a trajectory longer than a microbatch was dropped
    assert abs(m_t.loss_policy - m_s.loss_policy) < 1e-6 and abs(m_t.loss_kl - m_s.loss_kl) < 1e-7
    assert abs(m_t.offpolicy_weight_mean - m_s.offpolicy_weight_mean) < 1e-5
    assert math.isclose(m_t.grad_norm, m_s.grad_norm, rel_tol=1e-4) and m_t.grad_norm > 0
    for a, b in zip(g_t, g_s):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-7)
