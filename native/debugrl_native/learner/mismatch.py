"""How far the served rollouts are from the learner, per step: the numbers a researcher checks before trusting a run.

rho_t = pi_learner(y_t) / pi_served(y_t) for each loss token y_t, with pi_learner at the step's pre-update weights
and pi_served the logprob the inference server stored when it sampled y_t. The tokens were sampled from pi_served, so

    k3_t = rho_t - 1 - log rho_t        (Schulman 2020, "Approximating KL divergence"; >= 0 for every token)

is an unbiased estimate of KL(pi_served || pi_learner) = E_served[log pi_served - log pi_learner] (the direction is
fixed by who sampled: E_served[rho - 1] = 0). At lag 0 (rollouts from the learner's current version) the only cause
is serving numerics; NeMo-RL treats a lag-0 value below about 1e-3 as healthy. At lag k it adds k updates of drift.

Besides the k3 means, a step reports what the off-policy correction (loss.py) did with the tokens: the effective
sample size of their weights m_t, (sum m)^2 / (n sum m^2) in [0, 1] (1: every token counts equally), and the shares
of tokens that left the loss (masked), that were bounded (clipped), and of responses of which no token is left. The
same k3 and masked share are broken down by policy lag, by turn index and by response (trajectory) length, in a few
fixed buckets, so the payload stays a few dozen numbers: Temporal carries summaries, never per-token data.

Everything is accumulated as sums (`MismatchSums`) per microbatch, summed over ranks, and divided once (`summarize`).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .loss import Correction, safe_log_ratio

LAG_BUCKETS = ("0", "1", "2", "3", "4+")
TURN_BUCKETS = ("0", "1", "2-3", "4-7", "8-15", "16+")
LENGTH_BUCKETS = ("<256", "256-1023", "1024-4095", "4096+")  # completion tokens of the whole trajectory
_GROUPS = (len(LAG_BUCKETS), len(TURN_BUCKETS), len(LENGTH_BUCKETS))
_GLOBAL = 6  # tokens, k3, sum m, sum m^2, masked, clipped
_PER_BUCKET = 3  # tokens, k3, masked


def lag_bucket(lag: int) -> int:
    return min(max(lag, 0), len(LAG_BUCKETS) - 1)


def turn_bucket(turn: int) -> int:
    """0 -> 0, 1 -> 1, 2-3 -> 2, 4-7 -> 3, 8-15 -> 4, 16+ -> 5 (powers of two: 30- to 50-turn episodes fit)."""
    return 0 if turn <= 0 else min(turn.bit_length(), len(TURN_BUCKETS) - 1)


def length_bucket(tokens: int) -> int:
    return 0 if tokens < 256 else 1 if tokens < 1024 else 2 if tokens < 4096 else 3


def trajectory_tags(step_versions: list[int], step_lengths: list[int], current_version: int) -> torch.Tensor:
    """(lag bucket, turn bucket, length bucket) of every loss token of a trajectory, in token order. [T, 3] long.

    A trajectory's loss tokens are its steps' completion tokens in step order, whatever chains they fall into.
    """
    length = length_bucket(sum(step_lengths))
    rows = [(lag_bucket(current_version - v), turn_bucket(turn), length)
            for turn, (v, n) in enumerate(zip(step_versions, step_lengths)) for _ in range(n)]
    return torch.tensor(rows, dtype=torch.long).reshape(-1, 3)


def k3(log_ratio: torch.Tensor) -> torch.Tensor:
    """k3_t = rho_t - 1 - log rho_t with log rho_t = log pi_learner - log pi_served (clamped to +-20). [N], detached."""
    lr = safe_log_ratio(log_ratio).double()
    return torch.exp(lr) - 1.0 - lr


@dataclass
class MismatchSums:
    """Sums over RL loss tokens (one vector, so one all-reduce) and per-response token / kept-token counts."""

    vector: torch.Tensor  # [_GLOBAL + _PER_BUCKET * sum(_GROUPS)] float64
    response_tokens: torch.Tensor  # [R] float64: loss tokens seen
    response_kept: torch.Tensor  # [R] float64: loss tokens not masked

    @staticmethod
    def zeros(num_responses: int) -> MismatchSums:
        return MismatchSums(torch.zeros(_GLOBAL + _PER_BUCKET * sum(_GROUPS), dtype=torch.float64),
                            torch.zeros(num_responses, dtype=torch.float64), torch.zeros(num_responses, dtype=torch.float64))


def accumulate(sums: MismatchSums, log_ratio: torch.Tensor, corr: Correction, tags: torch.Tensor,
               response_index: torch.Tensor) -> None:
    """Add one microbatch's RL tokens: log_ratio [N], the correction applied to them, tags [N, 3], owners [N]."""
    if log_ratio.numel() == 0:
        return
    k = k3(log_ratio).cpu()
    m = corr.token_weight.detach().double().cpu()
    masked = corr.masked.cpu().double()
    tags = tags.cpu()
    v = sums.vector
    v[:_GLOBAL] += torch.stack([torch.tensor(float(k.numel()), dtype=torch.float64), k.sum(), m.sum(), (m * m).sum(),
                                masked.sum(), corr.clipped.cpu().double().sum()])
    offset = _GLOBAL
    for g, size in enumerate(_GROUPS):
        for col, values in enumerate((torch.ones_like(k), k, masked)):
            start = offset + col * size
            v[start:start + size] += torch.zeros(size, dtype=torch.float64).index_add(0, tags[:, g], values)
        offset += _PER_BUCKET * size
    idx = response_index.cpu()
    sums.response_tokens.index_add_(0, idx, torch.ones_like(k))
    sums.response_kept.index_add_(0, idx, 1.0 - masked)


def summarize(vector: list[float], response_tokens: list[float], response_kept: list[float]) -> dict:
    """The step's mismatch metrics (TrainMetrics fields) from the summed vectors. Empty buckets are None, not 0: a
    0 KL would claim a perfect match that nothing measured."""
    tokens, k3_sum, m_sum, m_sq, masked, clipped = vector[:_GLOBAL]
    ratio = lambda a, b: a / b if b else None  # noqa: E731
    out: dict = {
        "mismatch_k3": ratio(k3_sum, tokens),
        "offpolicy_ess": (m_sum * m_sum) / (tokens * m_sq) if tokens and m_sq else 0.0,
        "masked_token_frac": ratio(masked, tokens) or 0.0,
        "clipped_token_frac": ratio(clipped, tokens) or 0.0,
    }
    seen = [kept for n, kept in zip(response_tokens, response_kept) if n > 0]
    out["masked_response_frac"] = sum(1 for kept in seen if kept == 0) / len(seen) if seen else 0.0
    offset = _GLOBAL
    for name, size in zip(("lag", "turn", "length"), _GROUPS):
        n = vector[offset:offset + size]
        k = vector[offset + size:offset + 2 * size]
        mk = vector[offset + 2 * size:offset + 3 * size]
        out[f"mismatch_k3_by_{name}"] = [ratio(a, b) for a, b in zip(k, n)]
        out[f"masked_frac_by_{name}"] = [ratio(a, b) for a, b in zip(mk, n)]
        offset += _PER_BUCKET * size
    out["mismatch_k3_lag0"] = out["mismatch_k3_by_lag"][0]
    return out
