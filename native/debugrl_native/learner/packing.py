"""From trajectory steps to packed, rank-balanced microbatches.

1. Chains. A multi-turn trajectory is a list of steps (prompt tokens, completion tokens, stored logprobs). When step
   k+1's prompt starts with everything step k saw and produced (the prefix property), both steps are one token
   sequence and train as one: one forward instead of k. The property is CHECKED token by token, never assumed: a
   re-templated or truncated history starts a new chain. Only completion (assistant) tokens are in the loss.
2. Packing. Sequences are packed first-fit-decreasing into microbatches of at most `max_tokens` (16,384) tokens. Each
   packed sequence restarts its position ids at 0; transformers derives the attention boundaries from those restarts
   (block-diagonal causal mask for sdpa/eager, varlen for flash-attention) and `cu_seqlens` records them explicitly.
3. Ranks. Microbatches go largest first to the least-loaded rank, among the ranks that may still take one, so token
   loads balance and no rank gets more than one microbatch more than another: ranks synchronise between microbatch
   slots, so a rank with an extra slot idles its partner for a whole slot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Sequence

import torch


@dataclass(frozen=True)
class StepTokens:
    prompt_ids: Sequence[int]
    completion_ids: Sequence[int]
    completion_logprobs: Sequence[float]


@dataclass
class Chain:
    tokens: list[int] = field(default_factory=list)
    loss_mask: list[bool] = field(default_factory=list)  # True on assistant (completion) tokens
    rollout_logprobs: list[float] = field(default_factory=list)  # stored logprob at loss positions, 0.0 elsewhere
    steps: int = 0

    def extend(self, ids: Sequence[int], in_loss: bool, logprobs: Sequence[float] | None = None) -> None:
        self.tokens.extend(ids)
        self.loss_mask.extend([in_loss] * len(ids))
        self.rollout_logprobs.extend(logprobs if logprobs is not None else [0.0] * len(ids))


def _extends(chain: Chain, prompt: Sequence[int]) -> bool:
    n = len(chain.tokens)
    return len(prompt) >= n and list(prompt[:n]) == chain.tokens


def build_chains(steps: Sequence[StepTokens]) -> list[Chain]:
    """Group consecutive steps that extend the same token sequence; assistant-only loss mask."""
    chains: list[Chain] = []
    for i, step in enumerate(steps):
        if not step.prompt_ids:
            raise ValueError(f"step {i} has an empty prompt; the first token of a sequence cannot be trained on")
        if len(step.completion_ids) != len(step.completion_logprobs):
            raise ValueError(f"step {i}: {len(step.completion_ids)} completion tokens but "
                             f"{len(step.completion_logprobs)} stored logprobs")
        if chains and _extends(chains[-1], step.prompt_ids):
            chain = chains[-1]
            chain.extend(step.prompt_ids[len(chain.tokens):], in_loss=False)  # new user/tool tokens
        else:
            chain = Chain()
            chains.append(chain)
            chain.extend(step.prompt_ids, in_loss=False)
        chain.extend(step.completion_ids, in_loss=True, logprobs=step.completion_logprobs)
        chain.steps += 1
    return chains


# ---------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bin:
    items: tuple[int, ...]  # indices into the packed item list
    tokens: int


def pack_first_fit_decreasing(lengths: Sequence[int], max_tokens: int) -> list[Bin]:
    """Items (each kept whole) into as few bins of <= max_tokens as first-fit-decreasing finds."""
    too_long = [i for i, n in enumerate(lengths) if n > max_tokens]
    if too_long:
        raise ValueError(f"items {too_long[:5]} exceed max_tokens={max_tokens}; filter them before packing")
    bins: list[list[int]] = []
    loads: list[int] = []
    for i in sorted(range(len(lengths)), key=lambda k: (-lengths[k], k)):
        for b, load in enumerate(loads):
            if load + lengths[i] <= max_tokens:
                bins[b].append(i)
                loads[b] += lengths[i]
                break
        else:
            bins.append([i])
            loads.append(lengths[i])
    return [Bin(tuple(b), load) for b, load in zip(bins, loads)]


def assign_to_ranks(loads: Sequence[int], world_size: int) -> list[list[int]]:
    """Largest load first, to the least-loaded rank that may still take one. Returns microbatch indices per rank.

    Count rule: with n microbatches, every rank gets floor(n / W) or that plus one, and exactly n mod W ranks get the
    extra one, so no rank has more than one more microbatch than any other.
    """
    if world_size < 1:
        raise ValueError("world_size must be >= 1")
    n = len(loads)
    base, extra = divmod(n, world_size)
    ranks: list[list[int]] = [[] for _ in range(world_size)]
    tokens = [0] * world_size
    for mb in sorted(range(n), key=lambda k: (-loads[k], k)):
        ranks_with_extra = sum(len(r) > base for r in ranks)
        allowed = [r for r in range(world_size)
                   if len(ranks[r]) < base or (len(ranks[r]) == base and ranks_with_extra < extra)]
        r = min(allowed, key=lambda k: (tokens[k], len(ranks[k]), k))
        ranks[r].append(mb)
        tokens[r] += loads[mb]
    return ranks


def fill_ratio(bins: Sequence[Bin], max_tokens: int) -> float:
    return sum(b.tokens for b in bins) / (len(bins) * max_tokens) if bins else 1.0


def rank_balance(loads: Sequence[int], ranks: Sequence[Sequence[int]]) -> float:
    """max over ranks of its token load / mean rank load (1.0 = perfect)."""
    per_rank = [sum(loads[i] for i in r) for r in ranks]
    mean = sum(per_rank) / len(per_rank)
    return max(per_rank) / mean if mean else 1.0


# ---------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PackedSequence:
    chain: Chain
    owner: int  # response index (RL) or example index (BC) in the batch
    kind: Literal["rl", "bc"]


@dataclass(frozen=True)
class Microbatch:
    """One packed row. S = total tokens; N = loss tokens."""

    input_ids: torch.Tensor  # [1, S] long
    position_ids: torch.Tensor  # [1, S] long, restarting at 0 for every sequence
    cu_seqlens: torch.Tensor  # [num_sequences + 1] int32 sequence boundaries
    loss_positions: torch.Tensor  # [N] long: flat index of each loss token (its logit is at index - 1)
    rollout_logprobs: torch.Tensor  # [N] float
    owner: torch.Tensor  # [N] long: response / example index of each loss token
    is_bc: torch.Tensor  # [N] bool: the token is from a replayed SFT example (BC term), not an RL response

    @property
    def num_tokens(self) -> int:
        return int(self.input_ids.shape[1])


def assemble(sequences: Sequence[PackedSequence]) -> Microbatch:
    ids: list[int] = []
    pos: list[int] = []
    cu = [0]
    loss_pos: list[int] = []
    lps: list[float] = []
    owner: list[int] = []
    is_bc: list[bool] = []
    for seq in sequences:
        start = len(ids)
        c = seq.chain
        ids.extend(c.tokens)
        pos.extend(range(len(c.tokens)))
        cu.append(len(ids))
        for p, (m, lp) in enumerate(zip(c.loss_mask, c.rollout_logprobs)):
            if m:
                loss_pos.append(start + p)
                lps.append(lp)
                owner.append(seq.owner)
                is_bc.append(seq.kind == "bc")
    return Microbatch(
        input_ids=torch.tensor([ids], dtype=torch.long),
        position_ids=torch.tensor([pos], dtype=torch.long),
        cu_seqlens=torch.tensor(cu, dtype=torch.int32),
        loss_positions=torch.tensor(loss_pos, dtype=torch.long),
        rollout_logprobs=torch.tensor(lps, dtype=torch.float32),
        owner=torch.tensor(owner, dtype=torch.long),
        is_bc=torch.tensor(is_bc, dtype=torch.bool),
    )
