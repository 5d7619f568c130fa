"""The GRPO pieces against hand-computed values (the arithmetic is in the comments)."""

import math

import pytest
import torch

from debugrl_native.learner.loss import (
    K3_MAX,
    AdaptiveKlInputs,
    AdvantageInputs,
    AggregateInputs,
    BcInputs,
    ClipInputs,
    KlInputs,
    LengthWeightInputs,
    OffPolicyInputs,
    PolicyLagInputs,
    PolicyLossInputs,
    adapt_kl_coef,
    aggregate,
    behaviour_cloning,
    clipped_surrogate,
    fresh_mask,
    group_advantages,
    kl_penalty,
    length_weights,
    offpolicy_weights,
    policy_loss,
    response_coefficients,
)


def test_dr_grpo_advantages_do_not_divide_by_std():
    # the seed's example: both fail, one earns a little process credit -> R = [-1.0, -0.9], mean -0.95
    adv = group_advantages(AdvantageInputs(torch.tensor([-1.0, -0.9])))
    assert adv.tolist() == pytest.approx([-0.05, 0.05])
    # a fix vs a failure: R = [1.0, -1.0] -> A = [1, -1]; the gap stays 20x the process-credit gap
    assert group_advantages(AdvantageInputs(torch.tensor([1.0, -1.0]))).tolist() == pytest.approx([1.0, -1.0])


def test_std_variant_makes_tiny_differences_as_loud_as_a_fix():
    # population std of [-1.0, -0.9] is 0.05 -> A = [-0.05, 0.05] / 0.05 = [-1, 1] (eps 1e-6 negligible)
    adv = group_advantages(AdvantageInputs(torch.tensor([-1.0, -0.9]), normalize_by_std=True))
    assert adv.tolist() == pytest.approx([-1.0, 1.0], abs=1e-4)


def test_length_weights_hand_values_and_mean_one():
    # L = [1, 16], a = 0.25: L^-a = [1, 0.5], mean 0.75 -> w = [1/0.75, 0.5/0.75] = [4/3, 2/3]
    w = length_weights(LengthWeightInputs(torch.tensor([1.0, 16.0]), power=0.25))
    assert w.tolist() == pytest.approx([4 / 3, 2 / 3], rel=1e-6)
    # a length of 0 is clamped to 1; equal lengths -> all ones; scale invariance: [10, 160] == [1, 16]
    assert length_weights(LengthWeightInputs(torch.tensor([0.0, 1.0]))).tolist() == pytest.approx([1.0, 1.0])
    assert length_weights(LengthWeightInputs(torch.tensor([10.0, 160.0]))).tolist() == pytest.approx([4 / 3, 2 / 3])
    w = length_weights(LengthWeightInputs(torch.tensor([300.0, 1200.0, 5000.0, 9000.0])))
    assert float(w.mean()) == pytest.approx(1.0) and bool((w[:-1] > w[1:]).all())


def test_asymmetric_clip_hand_values():
    # rho = [1.5, 1.5, 0.5, 0.5, 1.1], A = [+1, -1, +1, -1, +2], eps 0.2 / 0.28
    rho = torch.tensor([1.5, 1.5, 0.5, 0.5, 1.1])
    adv = torch.tensor([1.0, -1.0, 1.0, -1.0, 2.0])
    out = clipped_surrogate(ClipInputs(rho.log(), adv, 0.2, 0.28))
    # t0: min(1.5, 1.28) = 1.28 -> -1.28 (upper clip binds)     t1: min(-1.5, -1.28) = -1.5 -> 1.5
    # t2: min(0.5, 0.8) = 0.5 -> -0.5                           t3: min(-0.5, -0.8) = -0.8 -> 0.8 (lower clip binds)
    # t4: 1.1 inside [0.8, 1.28]: -2.2
    assert out.token_loss.tolist() == pytest.approx([-1.28, 1.5, -0.5, 0.8, -2.2], rel=1e-6)
    assert out.clipped_high.tolist() == [True, False, False, False, False]
    assert out.clipped_low.tolist() == [False, False, False, True, False]


def test_offpolicy_weight_is_exp_48_mean_log_rho_clamped():
    # response 0: log rho = [0.01, 0.03] -> mean 0.02 -> exp(0.96) = 2.6117
    # response 1: log rho = [0.1] -> exp(4.8) = 121.5 -> clamped to 5.0
    # response 2: log rho = [-0.1, -0.1, -0.1] -> exp(-4.8) = 0.0082 -> clamped to 0.1
    lr = torch.tensor([0.01, 0.03, 0.1, -0.1, -0.1, -0.1])
    idx = torch.tensor([0, 0, 1, 2, 2, 2])
    w = offpolicy_weights(OffPolicyInputs(lr, idx, 3))
    assert w.tolist() == pytest.approx([math.exp(0.96), 5.0, 0.1], rel=1e-5)


def test_aggregation_tokens_then_responses():
    # response 0: tokens [1, 2, 3] -> mean 2; response 1: [10] -> 10; weights [0.5, 0.25] -> 1.0 + 2.5 = 3.5
    v = torch.tensor([1.0, 2.0, 3.0, 10.0])
    got = aggregate(AggregateInputs(v, torch.tensor([0, 0, 0, 1]), torch.tensor([0.5, 0.25])))
    assert float(got) == pytest.approx(3.5)


def test_response_coefficients_average_within_group_then_groups():
    # groups: g0 has 2 responses, g1 has 1 -> c = [1/(2*2), 1/(2*2), 1/(2*1)] = [0.25, 0.25, 0.5]
    assert response_coefficients([0, 0, 1]).tolist() == pytest.approx([0.25, 0.25, 0.5])


def test_policy_loss_composes_the_pieces_on_policy():
    # On-policy (log rho = 0): ratio 1, off-policy weight exp(0) = 1, no clipping.
    # response 0 (A = +0.5, 2 tokens), response 1 (A = -0.5, 1 token), one group -> c = [0.5, 0.5]
    # token losses: [-0.5, -0.5], [0.5] -> per response [-0.5, 0.5] -> 0.5 * -0.5 + 0.5 * 0.5 = 0
    lp = torch.tensor([-1.0, -2.0, -0.5], requires_grad=True)
    out = policy_loss(PolicyLossInputs(lp, lp.detach().clone(), torch.tensor([0, 0, 1]), torch.tensor([0.5, -0.5]),
                                       torch.tensor([0.5, 0.5])))
    assert float(out.loss.detach()) == pytest.approx(0.0)
    out.loss.backward()
    # d/d lp_t of -c A rho_t / N_i at rho = 1: t0, t1: -0.5 * 0.5 / 2 = -0.125; t2: -0.5 * -0.5 / 1 = 0.25
    assert lp.grad.tolist() == pytest.approx([-0.125, -0.125, 0.25])
    assert out.offpolicy_weight.tolist() == pytest.approx([1.0, 1.0])
    assert (out.tokens, out.clipped_low, out.clipped_high) == (3, 0, 0)


def test_policy_ratio_uses_stored_rollout_logprobs():
    # stored logprob -1.0, current -1.0 + ln 1.1 -> rho = 1.1; one token, A = 1, c = 1
    # w = exp(48 ln 1.1) = 1.1^48 = 97.0 -> clamped 5.0; loss = -5.0 * 1.1 = -5.5
    now = torch.tensor([-1.0 + math.log(1.1)])
    out = policy_loss(PolicyLossInputs(now, torch.tensor([-1.0]), torch.tensor([0]), torch.tensor([1.0]),
                                       torch.tensor([1.0])))
    assert float(out.loss) == pytest.approx(-5.5, rel=1e-5)
    assert out.ratio_max == pytest.approx(1.1, rel=1e-5)


def test_k3_kl_hand_value():
    # d = ref - now = ln 0.5 -> k = 0.5 - ln 0.5 - 1 = 0.19315; second token identical -> 0
    # response means: [0.19315, 0.0] with c = [1, 1] -> 0.19315
    now = torch.tensor([0.0, -1.0])
    ref = torch.tensor([math.log(0.5), -1.0])
    kl, per_tok = kl_penalty(KlInputs(now, ref, torch.tensor([0, 1]), torch.tensor([1.0, 1.0])))
    assert float(kl) == pytest.approx(0.5 - math.log(0.5) - 1.0, rel=1e-6)
    assert per_tok.tolist()[1] == pytest.approx(0.0)


def test_k3_is_capped_and_a_capped_token_adds_no_gradient():
    # token 0: d = 12 -> exp(12) - 13 = 162,741 uncapped; capped at K3_MAX, with no gradient. token 1: d = ln 2 -> 0.3069
    now = torch.tensor([-13.0, -1.0], requires_grad=True)
    ref = torch.tensor([-1.0, -1.0 + math.log(2.0)])
    kl, per_tok = kl_penalty(KlInputs(now, ref, torch.tensor([0, 0]), torch.tensor([1.0])))
    assert per_tok.tolist() == pytest.approx([K3_MAX, 2.0 - math.log(2.0) - 1.0], rel=1e-6)
    assert float(kl) == pytest.approx((K3_MAX + 2.0 - math.log(2.0) - 1.0) / 2, rel=1e-6)
    kl.backward()
    assert now.grad.tolist() == pytest.approx([0.0, (1.0 - 2.0) / 2], rel=1e-6)  # dk/dlogp = 1 - exp(d), over 2 tokens


def test_adaptive_kl_controller():
    # KL 0.04 vs target 0.02 -> error +1 -> clipped to +0.2 -> beta 0.1 * (1 + 0.2 / 10) = 0.102
    assert adapt_kl_coef(AdaptiveKlInputs(0.1, 0.04, 0.02, 10)) == pytest.approx(0.102)
    # KL 0.015 -> error -0.25 -> clipped -0.2 -> 0.1 * (1 - 0.02) = 0.098
    assert adapt_kl_coef(AdaptiveKlInputs(0.1, 0.015, 0.02, 10)) == pytest.approx(0.098)


def test_behaviour_cloning_is_token_then_example_mean_nll():
    # example 0: logprobs [-1, -3] -> NLL mean 2; example 1: [-0.5] -> 0.5; coef 1/2 each -> 1.25
    bc = behaviour_cloning(BcInputs(torch.tensor([-1.0, -3.0, -0.5]), torch.tensor([0, 0, 1]), torch.tensor([0.5, 0.5])))
    assert float(bc) == pytest.approx(1.25)


def test_policy_lag_filter_drops_and_counts():
    # current 10, max lag 4: versions 6 (lag 4) kept, 5 (lag 5) dropped, 10 kept, 2 dropped
    keep, dropped = fresh_mask(PolicyLagInputs([6, 5, 10, 2], current_version=10, max_lag=4))
    assert keep == [True, False, True, False] and dropped == 2
    with pytest.raises(ValueError, match="newer"):
        fresh_mask(PolicyLagInputs([11], current_version=10))
