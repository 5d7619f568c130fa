"""Choosing the next token, with or without a constraint, and the logprob reported for it.

Reported logprob. For every generated token, forced or sampled, we report log softmax(logits / T)[token]: the model's
own, UNCONSTRAINED log-probability at the sampling temperature T (T = 0, greedy, reports T = 1). We do not renormalise
over the tokens the constraint allowed. Why: the learner recomputes log pi(token | prefix) from the model with a plain
softmax, knowing nothing of our mask, and the GRPO/PPO importance ratio pi_new / pi_old is only ~1 on-policy if both
sides are computed the same way. The renormalised probability would be larger by exactly the allowed mass, which the
learner cannot reproduce. Consequence to keep in mind: forced tokens (the `<tool_call>` prefix, the suffix, EOS) carry
their real, possibly small, model probability, so a fresh model pays for the format in its logprobs until it learns it.

A draw is one uniform from the request's torch.Generator mapped through the inverse CDF (`draw`): the cumulative sum
of the probabilities in float64 and a binary search. torch.multinomial(probs, 1) draws one exponential per vocabulary
entry instead, 1.4 ms over SmolLM2's 49,152 tokens on this CPU against 0.07 ms (benchmarks/inference.md): at batch 8
that was ~11 ms of every decode step.

Sampling under a constraint is exact: draw from the temperature/top-p distribution, reject a disallowed draw, zero it
and draw again. This samples from the distribution renormalised over allowed tokens (each draw is conditioned on not
being a rejected token). After REJECTION_DRAWS rejections (a model that puts almost no mass on valid tokens, e.g. a
random one) the allowed tokens among the SCAN_CANDIDATES most likely are found by scanning and sampled renormalised;
if none of those is allowed either, the caller forces the completion of the call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

REJECTION_DRAWS = 64
SCAN_CANDIDATES = 1024


@dataclass(frozen=True)
class SamplingParams:
    temperature: float  # 0 = greedy
    top_p: float = 1.0


def token_logprobs(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    """[V] logits -> [V] log-probabilities at the sampling temperature (T = 1 for greedy)."""
    t = temperature if temperature > 0 else 1.0
    return torch.log_softmax(logits.float() / t, dim=-1)


def nucleus(probs: torch.Tensor, top_p: float) -> torch.Tensor:
    """Zero every token outside the smallest set whose mass reaches top_p (Holtzman et al. 2020). Always keeps the
    most likely token."""
    if top_p >= 1.0:
        return probs
    sorted_p, order = torch.sort(probs, descending=True)
    before = torch.cumsum(sorted_p, 0) - sorted_p  # mass of the tokens strictly more likely
    keep_sorted = before < top_p
    keep = torch.zeros_like(probs, dtype=torch.bool)
    keep[order[keep_sorted]] = True
    return torch.where(keep, probs, torch.zeros_like(probs))


def draw(probs: torch.Tensor, generator: torch.Generator) -> int:
    """An index i drawn with probability probs[i] / sum(probs) (probs >= 0, not all 0): the first i whose cumulative
    sum exceeds u * total, u uniform in [0, 1). A zero-probability index is never drawn: its cumulative sum equals the
    one before it."""
    cdf = torch.cumsum(probs, 0, dtype=torch.float64)
    u = torch.rand(1, generator=generator, dtype=torch.float64) * cdf[-1]
    i = int(torch.searchsorted(cdf, u, right=True))
    if i >= len(probs):  # u rounded up to the total: the last index with any mass
        i = int(torch.nonzero(probs)[-1, 0])
    return i


def choose_token(
    logprobs: torch.Tensor,
    params: SamplingParams,
    generator: torch.Generator,
    allowed: list[int] | None = None,
    accepts: Callable[[int], bool] | None = None,
) -> int | None:
    """The next token id, or None when a constraint leaves no candidate (the caller then forces a completion).

    allowed: an explicit candidate list (filtered further by accepts, if given). accepts: a test for one token id."""
    if allowed is not None:
        ids = [i for i in allowed if accepts is None or accepts(i)]
        if not ids:
            return None
        sub = logprobs[ids]
        if params.temperature == 0:
            return ids[int(torch.argmax(sub))]
        probs = nucleus(torch.exp(sub - sub.max()), params.top_p)
        return ids[draw(probs, generator)]

    if params.temperature == 0:
        for i in torch.topk(logprobs, min(SCAN_CANDIDATES, logprobs.numel())).indices.tolist():
            if accepts is None or accepts(i):
                return i
        return None

    probs = nucleus(torch.exp(logprobs), params.top_p)
    if accepts is None:
        return draw(probs, generator)
    probs = probs.clone()
    for _ in range(REJECTION_DRAWS):
        if float(probs.sum()) <= 0:
            break
        i = draw(probs, generator)
        if accepts(i):
            return i
        probs[i] = 0.0
    # The scan ignores top-p: a nucleus holding no valid token must not end the call early when valid tokens exist.
    full = torch.exp(logprobs)
    ids = [i for i in torch.topk(full, min(SCAN_CANDIDATES, full.numel())).indices.tolist() if accepts(i)]
    if not ids:
        return None
    return ids[draw(full[ids], generator)]
