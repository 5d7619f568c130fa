"""The seed's modified GRPO, one pure function per piece.

Tokens arrive flat (a packed microbatch), so per-response reductions use a `response_index` per loss token rather than
padding: token t belongs to response `response_index[t]` in [0, R). Every function takes a typed inputs dataclass and
returns tensors; none touches the model, the optimizer or global state.

The full objective, for the responses i of a batch of groups g:

    L = sum_i c_i * w_i * (1 / N_i) * sum_t l_t   +   beta * KL   +   lambda_bc * BC

    l_t  = -min(rho_t A'_i, clip(rho_t, 1 - eps_low, 1 + eps_high) A'_i)          (token surrogate, DAPO clip)
    rho_t = exp(log pi(y_t) - log pi_rollout(y_t))                                (against the STORED rollout logprobs)
    A'_i = lw_i * A_i,  A_i = R_i - mean_g(R)                                     (Dr. GRPO; lw_i: length weight)
    w_i  = clamp(exp(48 * mean_t log rho_t), 0.1, 5.0)   (detached)               (per-response off-policy weight)
    c_i  = 1 / (#groups * |g(i)|)                                                 (tokens, then responses, then groups)

That is the default off-policy mode, `seed_clamp`. The run's mode (config.py `LossConfig.offpolicy`) replaces w_i by a
detached per-token factor m_t: `token_tis` min(rho_t, C), `token_mask` (IcePop) rho_t inside [a, b] else 0, `seq_mask`
and `geo_rs` 1 for a kept response, 0 for a rejected one. For those four the surrogate's rho_t is taken against the
learner's own pre-update logprobs (decoupled PPO), so m_t carries the whole correction:

    L_policy = sum_i c_i * (1/N_i) * sum_t m_t l_t

Split responses. A response whose chains sit in different microbatches (or ranks) is still exact, because every
per-response quantity can be fixed before the gradient pass: N_i (its loss-token count) is known from the batch, and
w_i (or a response-level mode's keep_i), which needs the CURRENT logprobs of all its tokens, comes from a no-grad scoring pass (train.py). With N_i and w_i
given, the policy and KL terms are per-token weights times per-token values, so their sum over microbatches is the
unpacked loss and its gradient the unpacked gradient (tests/test_learner_split_chains.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import torch

from .config import OffPolicyCorrection, SeedClampCorrection

# ---------------------------------------------------------------------------------------------------------------------
# Group-level: advantages, length weights, aggregation coefficients, the policy-lag filter.


@dataclass(frozen=True)
class AdvantageInputs:
    rewards: torch.Tensor  # [G] total reward of each trajectory of ONE group
    normalize_by_std: bool = False
    eps: float = 1e-6


def group_advantages(inp: AdvantageInputs) -> torch.Tensor:
    """A_i = R_i - mean(R)  (Dr. GRPO, Liu et al. 2025, arXiv:2503.20783).

    With `normalize_by_std` (standard GRPO, Shao et al. 2024, arXiv:2402.03300): A_i = (R_i - mean(R)) / (std(R) + eps),
    std being the population std of the group. Off by default: in an all-fail group the std is tiny, and dividing by it
    makes small process-reward differences as loud as a verified fix.
    """
    r = inp.rewards.to(torch.float64)
    centred = r - r.mean()
    if inp.normalize_by_std:
        centred = centred / (r.std(unbiased=False) + inp.eps)
    return centred.to(inp.rewards.dtype)


@dataclass(frozen=True)
class LengthWeightInputs:
    lengths: torch.Tensor  # [G] generated-token count of each trajectory of one group (clamped to >= 1 here)
    power: float = 0.25


def length_weights(inp: LengthWeightInputs) -> torch.Tensor:
    """lw_i = (Lbar / L_i)^a / mean_j (Lbar / L_j)^a  =  L_i^-a / mean_j L_j^-a,   L_i = max(1, tokens_i).

    Why this form: it has mean exactly one within the group (so the group's total advantage magnitude is unchanged);
    it is positive for any lengths (a linear 1 - b (L_i - Lbar)/Lbar form can go negative and flip an advantage's sign);
    it depends only on length RATIOS (Lbar cancels), so a group of uniformly long trajectories is not down-weighted;
    and the power a sets how mild it is: with a = 0.25 a 16x longer trajectory gets half the weight of the shorter one.
    It scales positive and negative advantages alike, so it never rewards being short for its own sake.
    """
    lengths = inp.lengths.to(torch.float64).clamp_min(1.0)
    raw = lengths.pow(-inp.power)
    return (raw / raw.mean()).to(torch.float32)


def response_coefficients(group_of_response: list[int]) -> torch.Tensor:
    """c_i = 1 / (#groups * |group(i)|): a response's share when averaging responses within a group, then groups.

    Knowing c_i up front makes the loss a plain SUM over microbatches and ranks, so gradients can be summed.
    """
    if not group_of_response:
        return torch.zeros(0)
    groups = torch.tensor(group_of_response)
    _, inverse, counts = torch.unique(groups, return_inverse=True, return_counts=True)
    return 1.0 / (len(counts) * counts[inverse].to(torch.float32))


@dataclass(frozen=True)
class PolicyLagInputs:
    versions: list[int]  # oldest policy version that produced any step of each trajectory
    current_version: int
    max_lag: int = 4


def fresh_mask(inp: PolicyLagInputs) -> tuple[list[bool], int]:
    """keep_i = (current - version_i <= max_lag); returns (keep, number dropped).

    The seed excluded steps more than four policy versions old (PipelineRL-style async RL lets rollouts lag). A
    version newer than the learner's is a caller bug, and an error.
    """
    keep: list[bool] = []
    for v in inp.versions:
        if v > inp.current_version:
            raise ValueError(f"sample from policy version {v} is newer than the learner's {inp.current_version}")
        keep.append(inp.current_version - v <= inp.max_lag)
    return keep, keep.count(False)


# ---------------------------------------------------------------------------------------------------------------------
# Token-level pieces.


def segment_mean(values: torch.Tensor, segment: torch.Tensor, num_segments: int) -> torch.Tensor:
    """mean of values[t] over the t with segment[t] == s, for each s; 0 for an empty segment. [N] -> [S]."""
    sums = torch.zeros(num_segments, dtype=values.dtype, device=values.device).index_add(0, segment, values)
    counts = torch.zeros(num_segments, dtype=values.dtype, device=values.device).index_add(
        0, segment, torch.ones_like(values)
    )
    return sums / counts.clamp_min(1.0)


@dataclass(frozen=True)
class OffPolicyInputs:
    log_ratio: torch.Tensor  # [N] log rho_t of each loss token
    response_index: torch.Tensor  # [N] long
    num_responses: int
    scale: float = 48.0
    min_weight: float = 0.1
    max_weight: float = 5.0


def offpolicy_weights(inp: OffPolicyInputs) -> torch.Tensor:
    """w_i = clamp(exp(scale * mean_{t in i} log rho_t), min, max), detached. [R].

    The mean (not the sum) of log rho makes equal average per-token drift weigh the same for short and long
    responses; 48 is the seed's scale and [0.1, 5.0] its bounds. It is a weight on the response, not a path for
    gradients, so it is computed without them (its gradient would be 48x the token ratios').
    """
    mean_log = segment_mean(inp.log_ratio.detach(), inp.response_index, inp.num_responses)
    return offpolicy_weight_of_mean(mean_log, inp.scale, inp.min_weight, inp.max_weight)


def offpolicy_weight_of_mean(mean_log_ratio: torch.Tensor, scale: float = 48.0, min_weight: float = 0.1,
                             max_weight: float = 5.0) -> torch.Tensor:
    """w_i = clamp(exp(scale * mean_log_ratio_i), min, max): the bound applied to a response's mean log rho. [R]."""
    return torch.exp(scale * mean_log_ratio).clamp(min_weight, max_weight)


@dataclass(frozen=True)
class ClipInputs:
    log_ratio: torch.Tensor  # [N] log rho_t = logprob_now - logprob_rollout
    advantages: torch.Tensor  # [N] the (length-weighted) advantage of each token's response
    eps_low: float = 0.2
    eps_high: float = 0.28


@dataclass(frozen=True)
class ClipOutput:
    token_loss: torch.Tensor  # [N]
    clipped_low: torch.Tensor  # [N] bool: the lower bound binds (A < 0 and rho < 1 - eps_low)
    clipped_high: torch.Tensor  # [N] bool: the upper bound binds (A > 0 and rho > 1 + eps_high)


def clipped_surrogate(inp: ClipInputs) -> ClipOutput:
    """l_t = -min(rho_t A_t, clip(rho_t, 1 - eps_low, 1 + eps_high) A_t)  (PPO; asymmetric clip from DAPO, Yu et al.
    2025, arXiv:2503.14476). The wider upper bound keeps reinforcing rare good trajectories while the clip still
    limits the incentive (not the probability change itself). rho is taken against the stored rollout logprobs.
    """
    ratio = torch.exp(inp.log_ratio)
    clipped = ratio.clamp(1.0 - inp.eps_low, 1.0 + inp.eps_high)
    token_loss = -torch.minimum(ratio * inp.advantages, clipped * inp.advantages)
    return ClipOutput(
        token_loss=token_loss,
        clipped_low=(inp.advantages < 0) & (ratio < 1.0 - inp.eps_low),
        clipped_high=(inp.advantages > 0) & (ratio > 1.0 + inp.eps_high),
    )


@dataclass(frozen=True)
class AggregateInputs:
    token_values: torch.Tensor  # [N]
    response_index: torch.Tensor  # [N] long
    response_weight: torch.Tensor  # [R] c_i (times w_i for the policy term)
    response_tokens: torch.Tensor | None = None  # [R] N_i over the WHOLE response; None: count the tokens given here


def aggregate(inp: AggregateInputs) -> torch.Tensor:
    """sum_i weight_i * (1/N_i) sum_{t in i} v_t: tokens averaged within a response, then responses weighted.

    With `response_tokens`, N_i is the response's full count, so a call that sees only some of a response's tokens
    returns exactly its share, and the shares of all calls sum to the whole.
    """
    num = inp.response_weight.shape[0]
    if inp.response_tokens is None:
        per_response = segment_mean(inp.token_values, inp.response_index, num)
    else:
        sums = torch.zeros(num, dtype=inp.token_values.dtype, device=inp.token_values.device).index_add(
            0, inp.response_index, inp.token_values)
        per_response = sums / inp.response_tokens.to(sums.dtype).clamp_min(1.0)
    return (inp.response_weight.to(per_response.dtype) * per_response).sum()


# ---------------------------------------------------------------------------------------------------------------------
# Off-policy correction: which tokens count, and with what (detached) weight, when the stored rollout logprobs differ
# from the learner's. The causes are serving numerics (another kernel, precision or batch shape: lag 0) and policy lag
# (rollouts from an older adapter). One function per mode; `offpolicy_correction` picks the run's.

OffPolicyMode = Literal["seed_clamp", "token_tis", "token_mask", "seq_mask", "geo_rs"]
# Modes whose surrogate ratio is taken against the STORED rollout logprobs (the seed's design: the ratio is itself the
# per-token importance weight). Every other mode takes it against the learner's own pre-update logprobs (decoupled PPO,
# Hilton et al. 2021, arXiv:2110.00641: proximal policy = the learner now, behaviour policy = the server), and its
# weight carries the whole correction. With one update per batch that ratio is exactly 1, so the clip never binds and
# a token's gradient is weight_t * A_i * grad log pi(y_t).
ANCHORED_AT_ROLLOUT: frozenset[str] = frozenset({"seed_clamp"})
# |log rho_t| beyond this is treated as this: verl's safety bound, so that rho = 0 or inf (log rho = -inf or +inf)
# never turns a mean into NaN or a weight into inf. Any token this far off already decides every mode's outcome.
LOG_RATIO_BOUND = 20.0


def safe_log_ratio(log_ratio: torch.Tensor) -> torch.Tensor:
    """clamp(log rho_t, -20, 20), detached: the corrections are weights, never a path for gradients."""
    return log_ratio.detach().clamp(-LOG_RATIO_BOUND, LOG_RATIO_BOUND)


@dataclass(frozen=True)
class Correction:
    token_weight: torch.Tensor  # [N] detached factor on each token's surrogate; 0 where the token left the loss
    response_weight: torch.Tensor  # [R] the response-level factor folded into token_weight (1 where the mode has none)
    masked: torch.Tensor  # [N] bool: the token left the loss
    clipped: torch.Tensor  # [N] bool: the token's weight was bounded (truncated or clamped), not removed


def _merge_fixed(computed: torch.Tensor, fixed: torch.Tensor | None) -> torch.Tensor:
    """A split response's factor comes from ALL its tokens (the scoring pass, train.py); NaN entries: use `computed`."""
    if fixed is None:
        return computed
    fixed = fixed.to(computed)
    return torch.where(torch.isnan(fixed), computed, fixed)


def _response_correction(inp, response_weight: torch.Tensor,
                         clipped_response: Callable[[torch.Tensor], torch.Tensor]) -> Correction:
    w = _merge_fixed(response_weight, inp.fixed_response_weight)
    return Correction(token_weight=w[inp.response_index], response_weight=w, masked=(w == 0)[inp.response_index],
                      clipped=clipped_response(w)[inp.response_index])


@dataclass(frozen=True)
class SeedClampInputs:
    log_ratio: torch.Tensor  # [N] log rho_t = log pi_learner(y_t) - log pi_rollout(y_t)
    response_index: torch.Tensor  # [N] long
    num_responses: int
    scale: float = 48.0
    min_weight: float = 0.1
    max_weight: float = 5.0
    fixed_response_weight: torch.Tensor | None = None  # [R] w_i from all of a split response's tokens; NaN: from these


def seed_clamp(inp: SeedClampInputs) -> Correction:
    """w_i = clamp(exp(scale * mean_{t in i} log rho_t), min, max) on every token of response i; nothing is masked.

    The seed's rule (see `offpolicy_weights`), with the surrogate's ratio against the stored rollout logprobs. A
    response is `clipped` when its weight sits at a bound.
    """
    mean_log = segment_mean(safe_log_ratio(inp.log_ratio), inp.response_index, inp.num_responses)
    w = offpolicy_weight_of_mean(mean_log, inp.scale, inp.min_weight, inp.max_weight)
    return _response_correction(inp, w, lambda w: (w <= inp.min_weight) | (w >= inp.max_weight))


@dataclass(frozen=True)
class TokenTisInputs:
    log_ratio: torch.Tensor  # [N]
    response_index: torch.Tensor  # [N] long
    num_responses: int
    cap: float = 2.0


def token_tis(inp: TokenTisInputs) -> Correction:
    """w_t = min(rho_t, C): truncated per-token importance sampling (TIS; Yao et al. 2025, "Your efficient RL framework
    secretly brings you off-policy RL training"; verl `rollout_is: token`, TRL `vllm_importance_sampling_mode=
    "token_truncate"`). Unbiased where rho_t <= C; the cap bounds the variance a rare over-sampled token can add.
    Nothing leaves the loss; a token whose rho_t > C is `clipped`.
    """
    rho = torch.exp(safe_log_ratio(inp.log_ratio))
    ones = torch.ones(inp.num_responses, dtype=rho.dtype, device=rho.device)
    return Correction(token_weight=rho.clamp(max=inp.cap), response_weight=ones,
                      masked=torch.zeros_like(rho, dtype=torch.bool), clipped=rho > inp.cap)


@dataclass(frozen=True)
class TokenMaskInputs:
    log_ratio: torch.Tensor  # [N]
    response_index: torch.Tensor  # [N] long
    num_responses: int
    low: float = 0.5
    high: float = 5.0


def token_mask(inp: TokenMaskInputs) -> Correction:
    """w_t = rho_t if low <= rho_t <= high, else 0: IcePop (Ling Team 2025, "Every Step Evolves: Scaling RL for
    Trillion-Scale Thinking Model", arXiv:2510.18855, M(k) with [alpha, beta] = [0.5, 5]; NeMo-RL `icepop`, TRL
    "token_mask"). A token the two engines disagree on by more than the band leaves the loss instead of being
    truncated: its gradient is noise, not signal. Inside the band the ratio stays as its importance weight.
    """
    rho = torch.exp(safe_log_ratio(inp.log_ratio))
    keep = (rho >= inp.low) & (rho <= inp.high)
    ones = torch.ones(inp.num_responses, dtype=rho.dtype, device=rho.device)
    return Correction(token_weight=torch.where(keep, rho, torch.zeros_like(rho)), response_weight=ones, masked=~keep,
                      clipped=torch.zeros_like(keep))


@dataclass(frozen=True)
class SeqMaskInputs:
    log_ratio: torch.Tensor  # [N]
    response_index: torch.Tensor  # [N] long
    num_responses: int
    low: float = 0.9
    high: float = 1.1
    fixed_response_weight: torch.Tensor | None = None  # [R] 0/1 from all of a split response's tokens; NaN: from these


def seq_mask(inp: SeqMaskInputs) -> Correction:
    """keep_i = [low <= exp(mean_{t in i} log rho_t) <= high]; w_t = keep_i: geometric sequence masking (SkyRL's
    off-policy guide; NeMo-RL seq-mask). The geometric mean, not the product: TRL's "sequence_mask" exponentiates the
    SUM of log rho, which drifts with length until every long response is masked (verl's "length trap"). A kept
    response trains with weight 1 (rejection, not reweighting); an empty response has mean 0, ratio 1, and is kept.
    """
    mean_log = segment_mean(safe_log_ratio(inp.log_ratio), inp.response_index, inp.num_responses)
    keep = seq_mask_keep(mean_log, inp.low, inp.high)
    return _response_correction(inp, keep, lambda w: torch.zeros_like(w, dtype=torch.bool))


def seq_mask_keep(mean_log_ratio: torch.Tensor, low: float, high: float) -> torch.Tensor:
    """keep_i = [low <= exp(mean log rho_i) <= high] as 1.0 / 0.0. [R]."""
    g = torch.exp(mean_log_ratio)
    return ((g >= low) & (g <= high)).to(g.dtype)


@dataclass(frozen=True)
class GeoRsInputs:
    log_ratio: torch.Tensor  # [N]
    response_index: torch.Tensor  # [N] long
    num_responses: int
    low: float = 0.999
    high: float = 1.001
    veto: float = 1e-4
    fixed_response_weight: torch.Tensor | None = None  # [R] 0/1 from all of a split response's tokens; NaN: from these


def geo_rs(inp: GeoRsInputs) -> Correction:
    """keep_i = [low <= exp(mean_{t in i} log rho_t) <= high] and [min_{t in i} rho_t >= veto]; w_t = keep_i.

    Geometric rejection sampling as verl defines it (`RolloutCorrectionConfig.geo_rs`: rollout_rs="geometric",
    thresholds 0.999 / 1.001, rollout_token_veto_threshold 1e-4, no IS weights; Liu, Li et al. 2025, "When Speed Kills
    Stability", part 3: rejection over clipping for toxic tails). Unlike `seq_mask`, the band is tight (a 0.1 %
    per-token geometric drift) and one catastrophic token (rho < veto) rejects its whole response.
    """
    lr = safe_log_ratio(inp.log_ratio)
    mean_log = segment_mean(lr, inp.response_index, inp.num_responses)
    keep = geo_rs_keep(mean_log, segment_min(lr, inp.response_index, inp.num_responses), inp.low, inp.high, inp.veto)
    return _response_correction(inp, keep, lambda w: torch.zeros_like(w, dtype=torch.bool))


def segment_min(values: torch.Tensor, segment: torch.Tensor, num_segments: int) -> torch.Tensor:
    """min of values[t] over segment s; +LOG_RATIO_BOUND for an empty segment (nothing vetoes it). [N] -> [S]."""
    init = torch.full((num_segments,), LOG_RATIO_BOUND, dtype=values.dtype, device=values.device)
    return init.scatter_reduce(0, segment, values, reduce="amin")


def geo_rs_keep(mean_log_ratio: torch.Tensor, min_log_ratio: torch.Tensor, low: float, high: float,
                veto: float) -> torch.Tensor:
    """keep_i = [low <= exp(mean log rho_i) <= high] and [min log rho_i >= log veto] as 1.0 / 0.0. [R]."""
    g = torch.exp(mean_log_ratio)
    return ((g >= low) & (g <= high) & (min_log_ratio >= math.log(veto))).to(g.dtype)


def offpolicy_correction(spec: OffPolicyCorrection, log_ratio: torch.Tensor, response_index: torch.Tensor,
                         num_responses: int, fixed_response_weight: torch.Tensor | None = None) -> Correction:
    """The run's mode (config.py `LossConfig.offpolicy`) applied to these tokens."""
    if spec.mode == "seed_clamp":
        return seed_clamp(SeedClampInputs(log_ratio, response_index, num_responses, spec.scale, spec.min_weight,
                                          spec.max_weight, fixed_response_weight))
    if spec.mode == "token_tis":
        return token_tis(TokenTisInputs(log_ratio, response_index, num_responses, spec.cap))
    if spec.mode == "token_mask":
        return token_mask(TokenMaskInputs(log_ratio, response_index, num_responses, spec.low, spec.high))
    if spec.mode == "seq_mask":
        return seq_mask(SeqMaskInputs(log_ratio, response_index, num_responses, spec.low, spec.high,
                                      fixed_response_weight))
    if spec.mode == "geo_rs":
        return geo_rs(GeoRsInputs(log_ratio, response_index, num_responses, spec.low, spec.high, spec.veto,
                                  fixed_response_weight))
    raise ValueError(f"unknown off-policy mode {spec.mode!r}")


def response_factor(spec: OffPolicyCorrection, mean_log_ratio: torch.Tensor,
                    min_log_ratio: torch.Tensor) -> torch.Tensor | None:
    """The response-level factor of a response-level mode from each response's mean and min (safe) log rho over ALL
    its tokens: what the scoring pass gives the responses split over microbatches. None for the token-level modes,
    which need no pass. [R]."""
    if spec.mode == "seed_clamp":
        return offpolicy_weight_of_mean(mean_log_ratio, spec.scale, spec.min_weight, spec.max_weight)
    if spec.mode == "seq_mask":
        return seq_mask_keep(mean_log_ratio, spec.low, spec.high)
    if spec.mode == "geo_rs":
        return geo_rs_keep(mean_log_ratio, min_log_ratio, spec.low, spec.high, spec.veto)
    return None


@dataclass(frozen=True)
class PolicyLossInputs:
    logprobs: torch.Tensor  # [N] current policy logprob of each loss token (has grad)
    rollout_logprobs: torch.Tensor  # [N] stored by the inference server when the token was sampled
    response_index: torch.Tensor  # [N] long, in [0, R)
    advantages: torch.Tensor  # [R] length-weighted group advantages A'_i
    response_coef: torch.Tensor  # [R] c_i
    eps_low: float = 0.2
    eps_high: float = 0.28
    offpolicy: OffPolicyCorrection = field(default_factory=SeedClampCorrection)  # the run's correction mode
    response_tokens: torch.Tensor | None = None  # [R] N_i of the whole response (see aggregate)
    fixed_offpolicy_weight: torch.Tensor | None = None  # [R] response factor from a scoring pass; NaN: from these tokens


@dataclass(frozen=True)
class PolicyLossOutput:
    loss: torch.Tensor  # scalar
    offpolicy_weight: torch.Tensor  # [R] the response-level factor (w_i for seed_clamp, keep_i for the masks)
    tokens: int
    clipped_low: int
    clipped_high: int
    ratio_sum: float
    ratio_min: float
    ratio_max: float
    correction: Correction  # per-token weights and masks, for the mismatch metrics


def policy_loss(inp: PolicyLossInputs) -> PolicyLossOutput:
    """sum_i c_i (1/N_i) sum_t m_t l_t with the correction's detached token factor m_t (see the module docstring).

    The surrogate l_t's ratio is against the stored rollout logprobs for seed_clamp (m_t = w_i), and against the
    learner's own pre-update logprobs for the other modes (see ANCHORED_AT_ROLLOUT). N_i keeps counting masked tokens,
    as TRL's and verl's token-mean does: masking removes a token's signal without inflating the others'. A batch
    whose every token is masked has loss 0 and gradient 0, like an empty microbatch.
    """
    log_ratio = inp.logprobs - inp.rollout_logprobs
    num = inp.advantages.shape[0]
    corr = offpolicy_correction(inp.offpolicy, log_ratio, inp.response_index, num, inp.fixed_offpolicy_weight)
    if inp.offpolicy.mode in ANCHORED_AT_ROLLOUT:
        surrogate_log_ratio = log_ratio.clamp(-LOG_RATIO_BOUND, LOG_RATIO_BOUND)
    else:
        surrogate_log_ratio = inp.logprobs - inp.logprobs.detach()
    clip = clipped_surrogate(ClipInputs(surrogate_log_ratio, inp.advantages[inp.response_index], inp.eps_low,
                                        inp.eps_high))
    token_values = clip.token_loss * corr.token_weight.to(clip.token_loss.dtype)
    loss = aggregate(AggregateInputs(token_values, inp.response_index, inp.response_coef, inp.response_tokens))
    ratio = torch.exp(safe_log_ratio(log_ratio))
    n = int(ratio.numel())
    return PolicyLossOutput(
        loss=loss,
        offpolicy_weight=corr.response_weight,
        tokens=n,
        clipped_low=int(clip.clipped_low.sum()),
        clipped_high=int(clip.clipped_high.sum()),
        ratio_sum=float(ratio.sum()) if n else 0.0,
        ratio_min=float(ratio.min()) if n else float("inf"),
        ratio_max=float(ratio.max()) if n else float("-inf"),
        correction=corr,
    )


# ---------------------------------------------------------------------------------------------------------------------
# Regularisers.


@dataclass(frozen=True)
class KlInputs:
    logprobs: torch.Tensor  # [N] current policy (has grad)
    ref_logprobs: torch.Tensor  # [N] the KL reference: the init adapter on the shared base, or the base alone
    response_index: torch.Tensor  # [N]
    response_coef: torch.Tensor  # [R] c_i
    response_tokens: torch.Tensor | None = None  # [R] N_i of the whole response (see aggregate)


K3_MAX = 10.0


def kl_penalty(inp: KlInputs) -> tuple[torch.Tensor, torch.Tensor]:
    """KL(pi || pi_ref) by the k3 estimator (Schulman 2020): k_t = exp(d_t) - d_t - 1, d_t = log pi_ref - log pi.

    k3 is unbiased for sampled tokens, never negative, and has low variance. Aggregated like the policy term
    (tokens, then responses, then groups). Returns (aggregated KL with grad, per-token k_t detached).

    Each k_t is capped at K3_MAX (verl's low_var_kl caps it the same way). k3 grows like exp(d): one token the policy
    has all but ruled out where the reference still likes it (d = 12 on 2026-12-06, after a GRPO step at lr 1e-3
    from an SFT adapter) scored a step's KL at 1.5e5, and its gradient, exp(d) - 1 on that one log-probability, would
    then own the whole clipped gradient norm. Capped, such a token adds at most K3_MAX and no gradient.
    """
    d = inp.ref_logprobs - inp.logprobs
    k = torch.clamp(torch.exp(d) - d - 1.0, max=K3_MAX)
    return aggregate(AggregateInputs(k, inp.response_index, inp.response_coef, inp.response_tokens)), k.detach()


@dataclass(frozen=True)
class AdaptiveKlInputs:
    coef: float
    observed_kl: float
    target: float
    horizon: int
    steps: int = 1


def adapt_kl_coef(inp: AdaptiveKlInputs) -> float:
    """beta <- beta * (1 + clip((KL - target) / target, -0.2, 0.2) * steps / horizon)  (Ziegler et al. 2019,
    arXiv:1909.08593). The KL weight rises when drift from the reference overshoots the target and relaxes below it.
    """
    error = max(-0.2, min(0.2, (inp.observed_kl - inp.target) / inp.target))
    return inp.coef * (1.0 + error * inp.steps / inp.horizon)


@dataclass(frozen=True)
class BcInputs:
    logprobs: torch.Tensor  # [N] current policy logprob of each assistant token of replayed SFT examples
    example_index: torch.Tensor  # [N] long, in [0, X)
    example_coef: torch.Tensor  # [X] 1 / #examples in the whole batch


def behaviour_cloning(inp: BcInputs) -> torch.Tensor:
    """BC = sum_x coef_x * (-(1/N_x) sum_t log pi(y_t)): the SFT negative log-likelihood on replayed examples,
    averaged over tokens within an example, then over examples. The anchor that keeps the SFT workflows."""
    return aggregate(AggregateInputs(-inp.logprobs, inp.example_index, inp.example_coef))
