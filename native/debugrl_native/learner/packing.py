"""From trajectory steps to packed, rank-balanced microbatches.

1. Chains. A multi-turn trajectory is a list of steps (prompt tokens, completion tokens, stored logprobs). When step
   k+1's prompt starts with everything step k saw and produced (the prefix property), both steps are one token
   sequence and train as one: one forward instead of k. The property is CHECKED token by token, never assumed: a
   re-templated or truncated history starts a new chain. Only completion (assistant) tokens are in the loss.
2. Packing. Sequences are packed into microbatches of at most `max_tokens` (16,384) tokens: first-fit-decreasing,
   then, when FFD used more microbatches than the Martello-Toth lower bound, a bounded bin-completion search for a
   packing with fewer (`pack`). Each packed sequence restarts its position ids at 0; transformers derives the
   attention boundaries from those restarts (block-diagonal causal mask for sdpa/eager, varlen for flash-attention)
   and `cu_seqlens` records them explicitly. A sequence is never cut across microbatches.
3. Ranks. Microbatches go largest first to the least-loaded rank, among the ranks that may still take one, so token
   loads balance and no rank gets more than one microbatch more than another: ranks synchronise between microbatch
   slots, so a rank with an extra slot idles its partner for a whole slot.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import torch


@dataclass(frozen=True)
class StepTokens:
    prompt_ids: Sequence[int]
    completion_ids: Sequence[int]
    completion_logprobs: Sequence[float]
    # Per completion token, whether it is trained on (False: the grammar forced it, see LossConfig.train_forced_tokens).
    # None: every completion token is.
    completion_trained: Sequence[bool] | None = None
    # [P + C, L, k] expert ids the server routed the prompt and completion tokens to (routing.py; -1: none). None: no
    # routes (or routing replay is off).
    routes: torch.Tensor | None = None


@dataclass
class Chain:
    tokens: list[int] = field(default_factory=list)
    loss_mask: list[bool] = field(default_factory=list)  # True on assistant (completion) tokens
    rollout_logprobs: list[float] = field(default_factory=list)  # stored logprob at loss positions, 0.0 elsewhere
    steps: int = 0
    routes: torch.Tensor | None = None  # [len(tokens), L, k] replayed experts (-1: the router's own); None: none

    def extend(self, ids: Sequence[int], in_loss: bool | Sequence[bool], logprobs: Sequence[float] | None = None) -> None:
        self.tokens.extend(ids)
        self.loss_mask.extend([in_loss] * len(ids) if isinstance(in_loss, bool) else list(in_loss))
        self.rollout_logprobs.extend(logprobs if logprobs is not None else [0.0] * len(ids))


def _extends(chain: Chain, prompt: Sequence[int]) -> bool:
    n = len(chain.tokens)
    return len(prompt) >= n and list(prompt[:n]) == chain.tokens


def merge_routes(routes: Sequence[torch.Tensor], length: int) -> torch.Tensor:
    """One chain's routes from its steps' (each covers the chain's first P + C tokens, since a step's prompt extends
    the chain): a token keeps the first route reported for it; a later step only fills tokens still without one (the
    last token a step sampled, which the next step's prompt routes). [length, L, k], -1 where no step routed it."""
    out = torch.full((length, *routes[0].shape[1:]), -1, dtype=routes[0].dtype)
    for r in routes:
        gap = (out[: r.shape[0], 0, 0] == -1) & (r[:, 0, 0] != -1)
        out[: r.shape[0]][gap] = r[gap]
    return out


def build_chains(steps: Sequence[StepTokens]) -> list[Chain]:
    """Group consecutive steps that extend the same token sequence; assistant-only loss mask (minus the completion
    tokens a step marks as not trained)."""
    chains: list[Chain] = []
    routes: list[list[torch.Tensor]] = []  # per chain, its steps' routes
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
            routes.append([])
            chain.extend(step.prompt_ids, in_loss=False)
        if step.completion_trained is not None and len(step.completion_trained) != len(step.completion_ids):
            raise ValueError(f"step {i}: {len(step.completion_ids)} completion tokens but "
                             f"{len(step.completion_trained)} trained flags")
        trained = True if step.completion_trained is None else step.completion_trained
        chain.extend(step.completion_ids, in_loss=trained, logprobs=step.completion_logprobs)
        chain.steps += 1
        if step.routes is not None:
            routes[-1].append(step.routes)
    for chain, reported in zip(chains, routes):
        chain.routes = merge_routes(reported, len(chain.tokens)) if reported else None
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


def lower_bound_bins(lengths: Sequence[int], max_tokens: int) -> int:
    """Martello & Toth's L2 bound (1990) on the number of bins any packing needs; C = max_tokens.

    For each threshold k in [0, C/2]: items > C - k (J1) fit with nothing of size >= k, so each needs its own bin;
    items in (C/2, C - k] (J2) need one bin each, leaving C - w free; items in [k, C/2] (J3) that do not fit in J2's
    free space need ceil(excess / C) more bins:
        L(k) = |J1| + |J2| + max(0, ceil((sum J3 - (|J2| C - sum J2)) / C)),   L2 = max_k L(k)
    k = 0 gives ceil(sum / C). It is what caps the fill: no packer can beat sum / (L2 * C).
    """
    if not lengths:
        return 0
    cap = max_tokens
    best = 0
    for k in sorted({0, *(n for n in lengths if 2 * n <= cap)}):
        j1 = sum(1 for n in lengths if n > cap - k)
        j2 = [n for n in lengths if cap - k >= n and 2 * n > cap]
        j3 = sum(n for n in lengths if 2 * n <= cap and n >= k)
        free = len(j2) * cap - sum(j2)
        best = max(best, j1 + len(j2) + max(0, math.ceil((j3 - free) / cap)))
    return best


class _BudgetSpent(Exception):
    pass


class _BinCompletion:
    """Is there a packing into k bins? Korf's bin completion (2002) under limited discrepancy search.

    Bins are built one at a time around the largest remaining item; the candidate completions of a bin are the
    `top` fullest subsets of the remaining items that fit (distinct size multisets only), best first. A packing into
    k bins may waste at most k * C - sum tokens in total, which prunes every branch whose bins waste more. Limited
    discrepancy (Harvey & Ginsberg 1995): try the all-best-completion path first, then paths that take a worse
    completion at up to d bins, d = 1, 2, ... - early bins get revised as readily as late ones, unlike plain DFS,
    which spends its budget re-packing the last few bins.

    The budget counts search steps, not seconds, so every rank finds the same packing (ranks pack independently).
    """

    def __init__(self, lengths: Sequence[int], cap: int, budget: int, top: int = 3, max_discrepancy: int = 8):
        self.lengths, self.cap, self.budget, self.top, self.max_discrepancy = lengths, cap, budget, top, max_discrepancy
        self.steps = 0
        self._completions: dict[tuple[tuple[int, ...], int], list[tuple[int, tuple[int, ...]]]] = {}

    def _step(self) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise _BudgetSpent

    def completions(self, rest: tuple[int, ...], room: int) -> list[tuple[int, tuple[int, ...]]]:
        """(tokens, item indices) of the `top` fullest subsets of `rest` (sorted largest first) within `room`."""
        self._step()
        key = (rest, room)
        if key in self._completions:
            return self._completions[key]
        size = self.lengths
        best: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []  # min-heap of (tokens, sizes, indices)
        seen: set[tuple[int, ...]] = set()
        chosen: list[int] = []

        def extend(start: int, left: int, total: int) -> None:
            self._step()
            sizes = tuple(size[i] for i in chosen)
            if sizes not in seen:  # equal-size items are interchangeable: one subset per size multiset
                seen.add(sizes)
                entry = (total, sizes, tuple(chosen))
                if len(best) < self.top:
                    heapq.heappush(best, entry)
                elif entry[0] > best[0][0]:
                    heapq.heapreplace(best, entry)
            previous = None
            for j in range(start, len(rest)):
                n = size[rest[j]]
                if n <= left and n != previous:
                    previous = n
                    chosen.append(rest[j])
                    extend(j + 1, left - n, total + n)
                    chosen.pop()
                    if n == left:  # this bin is exactly full; nothing at this level can beat it
                        return

        extend(0, room, 0)
        out = [(total, idx) for total, _, idx in sorted(best, key=lambda e: (-e[0], e[1], e[2]))]
        self._completions[key] = out
        return out

    def _search(self, remaining: tuple[int, ...], waste: int, allowed: int, discrepancy: int) -> list[list[int]] | None:
        self._step()
        if not remaining:
            return []
        first, rest = remaining[0], remaining[1:]
        room = self.cap - self.lengths[first]
        for rank, (total, idx) in enumerate(self.completions(rest, room)):
            if rank > discrepancy or waste + room - total > allowed:
                break  # completions are fullest first: the later ones waste even more
            taken = set(idx)
            sub = self._search(tuple(i for i in rest if i not in taken), waste + room - total, allowed,
                               discrepancy - rank)
            if sub is not None:
                return [[first, *idx], *sub]
        return None

    def pack_into(self, k: int) -> list[list[int]] | None:
        allowed = k * self.cap - sum(self.lengths)
        if allowed < 0:
            return None
        order = tuple(sorted(range(len(self.lengths)), key=lambda i: (-self.lengths[i], i)))
        try:
            for d in range(self.max_discrepancy + 1):
                found = self._search(order, 0, allowed, d)
                if found is not None:
                    return found
        except _BudgetSpent:
            pass
        return None


def pack(lengths: Sequence[int], max_tokens: int, search_budget: int = 50_000) -> list[Bin]:
    """Items (each kept whole) into few bins of <= max_tokens: FFD, then a bounded search for fewer bins.

    FFD alone is at most one bin above the L2 lower bound on the benchmark's length mix, but that one bin is ~3 % of
    fill there (about 35 bins a batch). When FFD is above the bound, bin completion looks for packings with
    fewer bins, from the bound up; the search is deterministic and capped at `search_budget` steps (about 0.1 s in
    CPython at the default), after which FFD's packing stands.
    """
    ffd = pack_first_fit_decreasing(lengths, max_tokens)
    bound = lower_bound_bins(lengths, max_tokens)
    if len(ffd) <= bound or search_budget <= 0:
        return ffd
    search = _BinCompletion(lengths, max_tokens, search_budget)
    for k in range(bound, len(ffd)):
        found = search.pack_into(k)
        if found is not None:
            return [Bin(tuple(b), sum(lengths[i] for i in b)) for b in found]
        if search.steps >= search.budget:
            break
    return ffd


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
    routes: torch.Tensor | None = None  # [S, L, k] experts to replay (-1: the router's own); None: no sequence has any

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
        routes=_microbatch_routes([seq.chain for seq in sequences]),
        input_ids=torch.tensor([ids], dtype=torch.long),
        position_ids=torch.tensor([pos], dtype=torch.long),
        cu_seqlens=torch.tensor(cu, dtype=torch.int32),
        loss_positions=torch.tensor(loss_pos, dtype=torch.long),
        rollout_logprobs=torch.tensor(lps, dtype=torch.float32),
        owner=torch.tensor(owner, dtype=torch.long),
        is_bc=torch.tensor(is_bc, dtype=torch.bool),
    )


def _microbatch_routes(chains: Sequence[Chain]) -> torch.Tensor | None:
    """The packed row's routes: each chain's, -1 for the tokens of chains without any. None: no chain has routes."""
    routed = [c.routes for c in chains if c.routes is not None]
    if not routed:
        return None
    unrouted = lambda n: torch.full((n, *routed[0].shape[1:]), -1, dtype=routed[0].dtype)  # noqa: E731
    return torch.cat([c.routes if c.routes is not None else unrouted(len(c.tokens)) for c in chains])
