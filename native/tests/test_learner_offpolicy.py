"""The five off-policy correction modes against hand-computed values (the arithmetic is in the comments), with the
edge cases: rho = 0 and rho = inf, an empty response, every token masked, an empty microbatch."""

import math

import pytest
import torch
from pydantic import ValidationError

from debugrl_native.learner.config import (
    GeoRsCorrection,
    LossConfig,
    SeedClampCorrection,
    SeqMaskCorrection,
    TokenMaskCorrection,
    TokenTisCorrection,
)
from debugrl_native.learner.loss import (
    GeoRsInputs,
    PolicyLossInputs,
    SeedClampInputs,
    SeqMaskInputs,
    TokenMaskInputs,
    TokenTisInputs,
    geo_rs,
    policy_loss,
    response_factor,
    seed_clamp,
    seq_mask,
    token_mask,
    token_tis,
)

INF = float("inf")
E20 = math.exp(20.0)  # |log rho| is clamped to 20 (LOG_RATIO_BOUND) before any mode sees it


def test_seed_clamp_is_the_seeds_rule_and_bounds_rho_0_and_inf():
    # r0: log rho [0.01, 0.03] -> mean 0.02 -> exp(48 * 0.02) = exp(0.96) = 2.6117 (inside [0.1, 5])
    # r1: log rho [+inf] -> clamped 20 -> exp(960) = inf -> 5.0 (clipped)
    # r2: log rho [-inf] (rho = 0) -> -20 -> exp(-960) = 0 -> 0.1 (clipped)
    # r3: no tokens -> mean 0 -> exp(0) = 1
    lr = torch.tensor([0.01, 0.03, INF, -INF])
    out = seed_clamp(SeedClampInputs(lr, torch.tensor([0, 0, 1, 2]), 4))
    assert out.response_weight.tolist() == pytest.approx([math.exp(0.96), 5.0, 0.1, 1.0], rel=1e-5)
    assert out.token_weight.tolist() == pytest.approx([math.exp(0.96), math.exp(0.96), 5.0, 0.1], rel=1e-5)
    assert out.clipped.tolist() == [False, False, True, True]
    assert not out.masked.any()  # the seed never removes a token


def test_seed_clamp_takes_a_split_responses_weight_from_the_scoring_pass():
    # r0 from these tokens: exp(48 * 0.01) = exp(0.48); r1 fixed at 0.3 by the scoring pass (NaN: not split)
    out = seed_clamp(SeedClampInputs(torch.tensor([0.01, 0.5]), torch.tensor([0, 1]), 2,
                                     fixed_response_weight=torch.tensor([float("nan"), 0.3])))
    assert out.response_weight.tolist() == pytest.approx([math.exp(0.48), 0.3], rel=1e-5)


def test_token_tis_truncates_each_ratio_at_the_cap():
    # rho = [0.5, 1.5, 3, 0 -> e^-20, inf -> e^20], C = 2: w = [0.5, 1.5, 2, e^-20 = 2.1e-9, 2]; clipped where rho > 2
    lr = torch.tensor([math.log(0.5), math.log(1.5), math.log(3.0), -INF, INF])
    out = token_tis(TokenTisInputs(lr, torch.tensor([0, 0, 0, 1, 1]), 2, cap=2.0))
    assert out.token_weight.tolist() == pytest.approx([0.5, 1.5, 2.0, math.exp(-20.0), 2.0], rel=1e-6)
    assert out.clipped.tolist() == [False, False, True, False, True]
    assert not out.masked.any() and out.response_weight.tolist() == [1.0, 1.0]


def test_token_mask_icepop_removes_tokens_outside_the_band_and_keeps_the_ratio_inside():
    # band [0.5, 5]: rho = 0.5 (edge, kept, w 0.5), 1.5 (kept, 1.5), 6 (out), 0 (out), inf (out), 5 (edge, kept, 5)
    lr = torch.tensor([math.log(0.5), math.log(1.5), math.log(6.0), -INF, INF, math.log(5.0)])
    out = token_mask(TokenMaskInputs(lr, torch.zeros(6, dtype=torch.long), 1, low=0.5, high=5.0))
    assert out.masked.tolist() == [False, False, True, True, True, False]
    assert out.token_weight.tolist() == pytest.approx([0.5, 1.5, 0.0, 0.0, 0.0, 5.0], rel=1e-5)
    assert not out.clipped.any()


def test_seq_mask_uses_the_geometric_mean_ratio():
    # band [0.9, 1.1]
    # r0: [0.05, 0.05] -> mean 0.05 -> exp = 1.0513: kept
    # r1: [0.3, -0.1] -> mean 0.1 -> exp = 1.1052 > 1.1: masked
    # r2: [-inf] (rho = 0) -> -20 -> e^-20: masked
    # r3: no tokens -> mean 0 -> 1: kept (it has nothing to train anyway)
    # r4: [+inf, -inf] -> [20, -20] -> mean 0 -> 1: kept. The geometric mean lets opposite extremes cancel;
    #     geo_rs's per-token veto is what catches rho = 0 (next test).
    lr = torch.tensor([0.05, 0.05, 0.3, -0.1, -INF, INF, -INF])
    idx = torch.tensor([0, 0, 1, 1, 2, 4, 4])
    out = seq_mask(SeqMaskInputs(lr, idx, 5, low=0.9, high=1.1))
    assert out.response_weight.tolist() == [1.0, 0.0, 0.0, 1.0, 1.0]
    assert out.masked.tolist() == [False, False, True, True, True, False, False]
    assert out.token_weight.tolist() == [1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0]


def test_seq_mask_does_not_fall_into_the_length_trap():
    # 1000 tokens each at log rho 0.001: the product would be e^1 = 2.72 (masked by a product rule);
    # the geometric mean is e^0.001 = 1.001: kept
    out = seq_mask(SeqMaskInputs(torch.full((1000,), 0.001), torch.zeros(1000, dtype=torch.long), 1))
    assert out.response_weight.tolist() == [1.0]


def test_geo_rs_tight_band_and_token_veto():
    # band [0.999, 1.001], veto 1e-4
    # r0: [0.0005, 0.0005] -> exp(0.0005) = 1.0005: kept
    # r1: [0.003, 0.0] -> exp(0.0015) = 1.0015 > 1.001: rejected
    # r2: [0.5, -0.5] -> exp(0) = 1, min rho e^-0.5 = 0.61 >= 1e-4: kept
    # r3: [ln 1e-5, -ln 1e-5] -> exp(0) = 1 but min rho 1e-5 < 1e-4: vetoed
    # r4: [-inf, +inf] (rho = 0 and inf) -> [-20, 20] -> mean 0 but min rho e^-20: vetoed
    # r5: no tokens: kept
    l5 = math.log(1e-5)
    lr = torch.tensor([0.0005, 0.0005, 0.003, 0.0, 0.5, -0.5, l5, -l5, -INF, INF])
    idx = torch.tensor([0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
    out = geo_rs(GeoRsInputs(lr, idx, 6))
    assert out.response_weight.tolist() == [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    assert out.masked.tolist() == [False, False, True, True, False, False, True, True, True, True]


def test_response_factor_matches_the_token_functions():
    # the scoring pass computes a split response's factor from (mean, min) log rho: it must agree with the modes
    mean = torch.tensor([0.0005, 0.0015, 0.0, 0.02])
    mins = torch.tensor([0.0, 0.0, math.log(1e-5), 0.01])
    assert response_factor(GeoRsCorrection(), mean, mins).tolist() == [1.0, 0.0, 0.0, 0.0]
    assert response_factor(SeqMaskCorrection(), mean, mins).tolist() == [1.0, 1.0, 1.0, 1.0]
    # seed: exp(48 * 0.02) = exp(0.96)
    assert float(response_factor(SeedClampCorrection(), mean, mins)[3]) == pytest.approx(math.exp(0.96), rel=1e-5)
    assert response_factor(TokenTisCorrection(), mean, mins) is None  # token modes need no scoring pass


# --- the composed policy loss --------------------------------------------------------------------------------------


def test_decoupled_modes_weight_the_plain_policy_gradient():
    # token_tis, one token, rho = 3 (stored logprob ln(1/3) below the learner's), A = +1, c = 1, N = 1.
    # The surrogate's ratio is against the learner's own logprob: 1 -> l = -A = -1; m = min(3, 2) = 2 -> loss -2
    # d loss / d logp = -m * A * d(exp(lp - sg(lp)))/d lp = -2
    lp = torch.tensor([-1.0], requires_grad=True)
    out = policy_loss(PolicyLossInputs(lp, torch.tensor([-1.0 - math.log(3.0)]), torch.tensor([0]),
                                       torch.tensor([1.0]), torch.tensor([1.0]), offpolicy=TokenTisCorrection()))
    assert float(out.loss.detach()) == pytest.approx(-2.0, rel=1e-6)
    out.loss.backward()
    assert lp.grad.tolist() == pytest.approx([-2.0], rel=1e-6)
    assert out.clipped_high == 0  # ratio 1: the PPO clip cannot bind on a single update


def test_every_token_masked_gives_zero_loss_and_zero_gradient():
    # geo_rs rejects both responses (rho = e^30 -> clamped e^20, and rho = 0 -> vetoed); token_mask removes all tokens
    lp = torch.tensor([-1.0, -2.0, -0.5], requires_grad=True)
    rollout = torch.tensor([-31.0, -32.0, -0.5 + 40.0])  # log rho = [30, 30, -40]
    for spec in (GeoRsCorrection(), TokenMaskCorrection(), SeqMaskCorrection()):
        lp.grad = None
        out = policy_loss(PolicyLossInputs(lp, rollout, torch.tensor([0, 0, 1]), torch.tensor([0.5, -0.5]),
                                           torch.tensor([0.5, 0.5]), offpolicy=spec))
        assert float(out.loss.detach()) == 0.0, spec.mode
        out.loss.backward()
        assert lp.grad.tolist() == [0.0, 0.0, 0.0], spec.mode
        assert out.correction.masked.all()


def test_seed_clamp_stays_finite_at_rho_inf():
    # log rho = 999 -> clamped to 20 -> ratio e^20; A = -1 -> l = -min(-e^20, -0.8) = e^20; w = 5 -> loss 5 e^20
    # beyond the clamp the ratio carries no gradient: finite (0), never NaN
    lp = torch.tensor([-1.0], requires_grad=True)
    out = policy_loss(PolicyLossInputs(lp, torch.tensor([-1000.0]), torch.tensor([0]), torch.tensor([-1.0]),
                                       torch.tensor([1.0])))
    assert float(out.loss.detach()) == pytest.approx(5 * E20, rel=1e-5)
    out.loss.backward()
    assert lp.grad.tolist() == [0.0]


def test_empty_microbatch_and_empty_response():
    # no tokens at all: loss 0, backward runs, nothing is NaN
    lp = torch.zeros(0, requires_grad=True)
    for spec in (SeedClampCorrection(), TokenTisCorrection(), TokenMaskCorrection(), SeqMaskCorrection(),
                 GeoRsCorrection()):
        out = policy_loss(PolicyLossInputs(lp, torch.zeros(0), torch.zeros(0, dtype=torch.long),
                                           torch.tensor([1.0]), torch.tensor([1.0]), offpolicy=spec))
        assert float(out.loss.detach()) == 0.0 and out.tokens == 0
        out.loss.backward()
    # response 1 has no tokens: on-policy response 0 (A = 1, c = 0.5, 1 token) gives -0.5 under every mode
    for spec in (SeedClampCorrection(), TokenTisCorrection(), TokenMaskCorrection(), SeqMaskCorrection(),
                 GeoRsCorrection()):
        out = policy_loss(PolicyLossInputs(torch.tensor([-1.0]), torch.tensor([-1.0]), torch.tensor([0]),
                                           torch.tensor([1.0, -1.0]), torch.tensor([0.5, 0.5]), offpolicy=spec))
        assert float(out.loss.detach()) == pytest.approx(-0.5), spec.mode


# --- configuration -------------------------------------------------------------------------------------------------


def test_mode_is_selected_per_run_with_bounds_checked():
    assert LossConfig().offpolicy == SeedClampCorrection()  # the default
    cfg = LossConfig.model_validate({"offpolicy": {"mode": "token_mask", "low": 0.25}})
    assert isinstance(cfg.offpolicy, TokenMaskCorrection) and (cfg.offpolicy.low, cfg.offpolicy.high) == (0.25, 5.0)
    with pytest.raises(ValidationError, match="cap"):
        LossConfig.model_validate({"offpolicy": {"mode": "token_tis", "cap": 0.5}})
    with pytest.raises(ValidationError, match="must contain 1"):
        LossConfig.model_validate({"offpolicy": {"mode": "seq_mask", "low": 1.05, "high": 1.2}})
    with pytest.raises(ValidationError, match="min_weight"):
        LossConfig.model_validate({"offpolicy": {"mode": "seed_clamp", "min_weight": 6.0}})
    with pytest.raises(ValidationError):
        LossConfig.model_validate({"offpolicy": {"mode": "seq_clamp"}})
