"""The learner: one GRPO update per train batch. Reads top to bottom: setup, batch -> microbatches, loop, step.

Every rank runs `train_step` on the same batch (the service broadcasts it); the packing and rank assignment are
deterministic, so each rank knows its own microbatches and how many slots the busiest rank has.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch
from torch import nn

from ..cpu_share import CpuShare
from .config import LearnerConfig
from .distributed import (
    DistContext,
    all_reduce_scalars,
    allreduce_adapter_grads,
    broadcast_adapters,
    shard_frozen_base,
)
from .lora import (
    adapter_weights_swapped,
    adapters_disabled,
    apply_lora,
    check_adapter_config,
    load_adapter,
    load_adapter_weights,
    lora_parameters,
    read_reference_weights,
    save_adapter,
)
from .loss import (
    AdaptiveKlInputs,
    AdvantageInputs,
    BcInputs,
    KlInputs,
    LengthWeightInputs,
    PolicyLagInputs,
    PolicyLossInputs,
    adapt_kl_coef,
    behaviour_cloning,
    fresh_mask,
    group_advantages,
    kl_penalty,
    length_weights,
    policy_loss,
    response_coefficients,
    response_factor,
    safe_log_ratio,
    segment_min,
)
from .memory import plan_memory, read_peak, refuse_oversized, reset_peak
from .mismatch import MismatchSums, accumulate, summarize, trajectory_tags
from .models import load_from_config
from .packing import (
    Chain,
    Microbatch,
    PackedSequence,
    StepTokens,
    assemble,
    assign_to_ranks,
    build_chains,
    fill_ratio,
    pack,
    pack_first_fit_decreasing,
    rank_balance,
)
from .protocol import DroppedTrajectory, Step, TrainBatch, TrainMetrics
from .routing import RouteReplay, RoutingShape, step_routes


class InvalidBatch(ValueError):
    """The batch cannot be trained on as sent (the caller's mistake, not the learner's)."""


@dataclass
class _Item:
    """A packing unit: all chains of one trajectory together when they fit in one microbatch, else one chain.

    Keeping a trajectory whole keeps it cheap: its off-policy weight w_i needs the current logprobs of ALL its tokens,
    which one forward gives. A trajectory longer than a microbatch (several chains, each of which fits) is split
    into its chains; those responses get w_i from a no-grad scoring pass before the gradient pass
    (`Learner._split_offpolicy_weights`), and N_i from the batch, so the loss is still exact (see loss.py).
    """

    sequences: list[PackedSequence]
    tags: list[torch.Tensor] | None = None  # per sequence, (lag, turn, length) buckets of its loss tokens (mismatch.py)

    def tags_of(self, k: int) -> torch.Tensor:
        seq = self.sequences[k]
        return self.tags[k] if self.tags is not None else torch.zeros(sum(seq.chain.loss_mask), 3, dtype=torch.long)

    @property
    def tokens(self) -> int:
        return sum(len(s.chain.tokens) for s in self.sequences)


@dataclass
class PreparedBatch:
    items: list[_Item]
    advantages: torch.Tensor  # [R] length-weighted
    response_coef: torch.Tensor  # [R]
    response_tokens: torch.Tensor  # [R] loss (completion) tokens of each response, over all its chains
    example_coef: torch.Tensor  # [X]
    stale_dropped: int = 0
    too_long_dropped: int = 0
    dropped: list[DroppedTrajectory] = field(default_factory=list)  # which ones, and why (the response names them)
    trajectories: int = 0
    sft_examples: int = 0
    chains: int = 0


@dataclass
class _Sums:
    policy: float = 0.0
    kl: float = 0.0
    bc: float = 0.0
    kl_tokens_sum: float = 0.0
    rl_tokens: int = 0
    bc_tokens: int = 0
    clip_low: int = 0
    clip_high: int = 0
    ratio_sum: float = 0.0
    ratio_min: float = float("inf")
    ratio_max: float = float("-inf")
    w: list[float] = field(default_factory=list)
    tokens: int = 0


def prepare_batch(batch: TrainBatch, cfg: LearnerConfig, current_version: int, vocab_size: int,
                  microbatch_tokens: int | None = None, routing: RoutingShape | None = None) -> PreparedBatch:
    """Stale filter, group advantages, length weights, chains and coefficients: everything before the model runs.

    `microbatch_tokens` (<= packing.max_tokens) is what one microbatch may hold in memory (memory.py): a trajectory
    longer than that goes in chain by chain. `routing`: the model's MoE routing when routes are replayed (routing.py);
    the steps' routes are checked against it and carried to the microbatches. None: routes are ignored."""
    lc, max_tokens = cfg.loss, cfg.packing.max_tokens
    items: list[_Item] = []
    advantages: list[float] = []
    response_group: list[int] = []
    response_tokens: list[int] = []
    stale = too_long = chains = 0
    dropped: list[DroppedTrajectory] = []
    for g, group in enumerate(batch.groups):
        trajs = group.trajectories
        _check_vocab([t for tr in trajs for s in tr.steps for t in (*s.prompt_ids, *s.completion_ids)], vocab_size)
        # The baseline and length weights use the WHOLE group: a stale trajectory's reward is still a valid sample
        # of the task's difficulty; only its tokens are refused, because their logprobs are too far off-policy.
        adv = group_advantages(AdvantageInputs(torch.tensor([t.reward for t in trajs], dtype=torch.float64),
                                               lc.normalize_advantages_by_std, lc.std_eps))
        lengths = torch.tensor([sum(len(s.completion_ids) for s in t.steps) for t in trajs], dtype=torch.float64)
        lw = length_weights(LengthWeightInputs(lengths, lc.length_weight_power))
        oldest = [min(s.policy_version for s in t.steps) for t in trajs]
        keep, n_stale = fresh_mask(PolicyLagInputs(oldest, current_version, lc.max_policy_lag))
        stale += n_stale
        for t, traj in enumerate(trajs):
            lag = current_version - oldest[t]
            if not keep[t]:
                dropped.append(DroppedTrajectory(trajectory_id=traj.trajectory_id, group_id=group.group_id,
                                                 reason="policy-lag", lag=lag))
                continue
            trained = [_trained_flags(s, lc.train_forced_tokens) for s in traj.steps]
            n_trained = sum(len(s.completion_ids) if f is None else sum(f) for s, f in zip(traj.steps, trained))
            if n_trained == 0:  # nothing the policy chose: an empty reply, or one the grammar wrote whole
                continue
            traj_chains = build_chains([StepTokens(s.prompt_ids, s.completion_ids, s.completion_logprobs, f,
                                                   _replayed_routes(s, routing, traj.trajectory_id, i))
                                        for i, (s, f) in enumerate(zip(traj.steps, trained))])
            owner = len(advantages)
            if any(len(c.tokens) > max_tokens for c in traj_chains):  # the seed excluded what did not fit its
                too_long += 1                                          # 16,384-token context
                dropped.append(DroppedTrajectory(trajectory_id=traj.trajectory_id, group_id=group.group_id,
                                                 reason="too-long", lag=lag))
                continue
            tags = trajectory_tags([s.policy_version for s in traj.steps], [len(s.completion_ids) for s in traj.steps],
                                   current_version)
            if any(f is not None for f in trained):  # the buckets of the trained tokens only
                tags = tags[torch.tensor([x for s, f in zip(traj.steps, trained)
                                          for x in (f if f is not None else [True] * len(s.completion_ids))])]
            tags = tags.split([sum(c.loss_mask) for c in traj_chains])
            whole = _Item([PackedSequence(c, owner, "rl") for c in traj_chains], list(tags))
            # a trajectory too long for one microbatch (only possible with several chains) goes in chain by chain
            items.extend([whole] if whole.tokens <= (microbatch_tokens or max_tokens)
                         else [_Item([seq], [tag]) for seq, tag in zip(whole.sequences, tags)])
            chains += len(traj_chains)
            advantages.append(float(adv[t] * lw[t]) * (-1.0 if lc.debug_negate_advantages else 1.0))
            response_group.append(g)
            response_tokens.append(n_trained)
    examples = 0
    # A zero BC weight cannot move the policy: its examples are not forwarded, so the step equals the step without them.
    for ex in batch.sft_examples if lc.bc_coef > 0 else []:
        _check_vocab(ex.token_ids, vocab_size)
        if len(ex.token_ids) > max_tokens:
            too_long += 1
            continue
        chain = Chain(list(ex.token_ids), list(ex.assistant_mask), [0.0] * len(ex.token_ids), steps=1)
        if not any(ex.assistant_mask):
            continue
        items.append(_Item([PackedSequence(chain, examples, "bc")]))
        examples += 1
    return PreparedBatch(
        items=items,
        advantages=torch.tensor(advantages, dtype=torch.float32),
        response_coef=response_coefficients(response_group),
        response_tokens=torch.tensor(response_tokens, dtype=torch.long),
        example_coef=torch.full((examples,), 1.0 / examples) if examples else torch.zeros(0),
        stale_dropped=stale,
        too_long_dropped=too_long,
        dropped=dropped,
        trajectories=len(advantages),
        sft_examples=examples,
        chains=chains,
    )


def _trained_flags(step, train_forced: bool) -> list[bool] | None:
    """Which completion tokens of a step enter the loss: all (None) unless the server marked forced ones and the
    config leaves those out (LossConfig.train_forced_tokens)."""
    if train_forced or step.completion_forced is None:
        return None
    return [not f for f in step.completion_forced]


def _replayed_routes(step: Step, routing: RoutingShape | None, trajectory_id: str, index: int) -> torch.Tensor | None:
    """The step's routes to replay (None when replay is off or the step has none); a bad one names its step."""
    if routing is None:
        return None
    try:
        return step_routes(step, routing)
    except ValueError as e:
        raise InvalidBatch(f"trajectory {trajectory_id} step {index}: {e}") from e


def _check_vocab(ids: list[int], vocab_size: int) -> None:
    if ids and max(ids) >= vocab_size:
        raise InvalidBatch(f"token id {max(ids)} is outside the model's vocabulary of {vocab_size}")


def _response_homes(prep: PreparedBatch, bins: list) -> tuple[torch.Tensor, list[int]]:
    """(home microbatch of each response [R], the responses whose chains are in more than one microbatch)."""
    where: dict[int, set[int]] = {}
    for b, bin_ in enumerate(bins):
        for i in bin_.items:
            for seq in prep.items[i].sequences:
                if seq.kind == "rl":
                    where.setdefault(seq.owner, set()).add(b)
    num = prep.response_tokens.shape[0]
    home = torch.tensor([min(where.get(r, {-2})) for r in range(num)], dtype=torch.long)
    return home, sorted(r for r, bs in where.items() if len(bs) > 1)


def _dummy_microbatch() -> Microbatch:
    # A rank with one slot fewer still runs a forward/backward so FSDP's all-gathers line up on every rank
    # (otherwise the busier rank waits forever in the next collective). Two tokens, no loss tokens.
    return assemble([PackedSequence(Chain([0, 0], [False, False], [0.0, 0.0]), 0, "rl")])


class Learner:
    def __init__(self, cfg: LearnerConfig, ctx: DistContext | None = None, initial_adapter: Path | None = None):
        self.cfg = cfg
        self.ctx = ctx or DistContext()
        model = load_from_config(cfg, self.ctx.device)
        apply_lora(model, cfg.lora, cfg.experts_impl)
        self.version = cfg.initial_version
        for folder in {cfg.init_adapter, cfg.reference_adapter} - {None}:
            check_adapter_config(folder, cfg.lora, cfg.base_model_name)
        if initial_adapter is not None:
            self.version = load_adapter(model, initial_adapter)
        elif cfg.init_adapter is not None:
            load_adapter_weights(model, cfg.init_adapter)  # another run's weights, this run's initial version
        # The KL reference's weights (frozen, on the shared base); None: the base with adapters disabled.
        self.reference: list[torch.Tensor] | None = (
            read_reference_weights(model, cfg.reference_adapter) if cfg.reference_adapter is not None else None)
        self.adapter_path: Path | None = None
        self.last_dropped: list[DroppedTrajectory] = []  # the trajectories the last train_step left out, and why
        if cfg.init_adapter is not None and initial_adapter is None:
            # The init adapter is this run's version 0 (initial_version): written under that version's name and
            # metadata, so the inference server serves it (and says which version it is) like any trained version.
            self.adapter_path = cfg.output_dir / f"v{self.version}"
            if self.ctx.is_main:
                save_adapter(model, self.adapter_path, self.version, cfg.lora, cfg.base_model_name)
        # Unset: on for a CPU learner (a 16k-token GRPO step without it grew the service to 21 GB), off on a GPU.
        self.checkpointing = (cfg.gradient_checkpointing if cfg.gradient_checkpointing is not None
                              else self.ctx.device.type == "cpu")
        if self.checkpointing:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        self.vocab_size = int(model.config.vocab_size)
        # Rollout routing replay: hooks on the routers, installed before FSDP wraps the layers. None: replay is off.
        self.replay: RouteReplay | None = RouteReplay(model) if cfg.routing_replay else None
        self.adapter_params = list(lora_parameters(model).values())
        broadcast_adapters(self.adapter_params, self.ctx)
        self.model: nn.Module = (
            shard_frozen_base(model, self.ctx, self.adapter_params) if self.ctx.distributed else model
        )
        self.model.train()
        o = cfg.optim
        self.optimizer = torch.optim.AdamW(self.adapter_params, lr=o.lr, betas=o.betas, weight_decay=o.weight_decay)
        # Microbatch tokens from the memory budget and the model's size; every rank packs alike, so the smallest wins.
        self.memory = plan_memory(config=model.config, dtype=next(model.parameters()).dtype,
                                  checkpointing=self.checkpointing, device=self.ctx.device,
                                  adapter_params=self.adapter_params, budget_gb=cfg.memory_budget_gb,
                                  packing_max_tokens=cfg.packing.max_tokens,
                                  weights_bytes=sum(p.numel() * p.element_size() for p in model.parameters()))
        self.microbatch_tokens = int(min(all_reduce_scalars([self.memory.max_tokens], self.ctx, "min")))
        print(f"learner: {self.memory.describe()}", file=sys.stderr)
        self.kl_coef = cfg.loss.kl_coef
        # On a CPU, each microbatch picks its thread count from the machine's load (cpu_share.py); at most the count
        # the process started with.
        self.max_threads = torch.get_num_threads()
        self.cpu_share = CpuShare() if self.ctx.device.type == "cpu" and self.max_threads > 1 else None

    def reference_policy(self):
        """Context for the KL reference's forward (no grad): the init adapter's frozen weights swapped in on the same
        frozen base, or the base with adapters disabled when the run has no init adapter."""
        if self.reference is None:
            return adapters_disabled(self.model)
        return adapter_weights_swapped(self.adapter_params, self.reference)

    @property
    def trainable_parameters(self) -> int:
        return sum(p.numel() for p in self.adapter_params)

    # --- forward ---------------------------------------------------------------------------------------------------

    def token_logprobs(self, mb: Microbatch) -> torch.Tensor:
        """log pi(token) at every loss position of the microbatch: [N] float32.

        With routing replay on, the microbatch's routes stay loaded after the forward, so the backward that follows
        (which recomputes checkpointed layers) routes as the forward did; the next call loads its own."""
        dev = self.ctx.device
        if self.cpu_share is not None:  # this microbatch's forward and backward run on the cores the others leave
            torch.set_num_threads(self.cpu_share.threads(self.max_threads))
        if self.replay is not None:
            self.replay.load(mb.routes, dev)
        # logits only where a loss token is predicted (position - 1): [1, N, V] instead of [1, S, V]
        keep = (mb.loss_positions - 1).clamp_min(0).to(dev) if mb.loss_positions.numel() else torch.tensor([0], device=dev)
        out = self.model(input_ids=mb.input_ids.to(dev), position_ids=mb.position_ids.to(dev),
                         use_cache=False, logits_to_keep=keep)
        logits = out.logits[0].float()  # [N, V]
        if mb.loss_positions.numel() == 0:
            return logits.sum() * 0.0  # a scalar with a graph, so backward (and FSDP's hooks) still run
        targets = mb.input_ids[0, mb.loss_positions].to(dev)
        return torch.log_softmax(logits, -1).gather(-1, targets[:, None]).squeeze(-1)

    @torch.no_grad()
    def _split_offpolicy_weights(self, prep: PreparedBatch, split: list[int]) -> torch.Tensor | None:
        """w_i of the responses spread over several microbatches, from a no-grad forward of their chains. [R].

        w_i = clamp(exp(48 * mean_t log rho_t)) (or a response-level mode's keep_i, from the mean and min of log rho)
        needs the current logprobs of all of response i's tokens before any of its gradient is taken, and its chains are in different microbatches (maybe on different ranks). So the
        split responses' chains are scored first: packed, spread over ranks (every rank runs the same number of
        forwards, dummies included, so FSDP's all-gathers line up), log rho summed per response, one all-reduce.
        Entries of responses that are not split are NaN: the gradient pass computes theirs from its own forward.
        The cost is one extra forward over the split responses' tokens, which only trajectories longer than a
        microbatch incur. Token-level modes need no pass: None.
        """
        lc, dev = self.cfg.loss, self.ctx.device
        if response_factor(lc.offpolicy, torch.zeros(0), torch.zeros(0)) is None:
            return None
        wanted = set(split)
        seqs = [seq for it in prep.items for seq in it.sequences if seq.kind == "rl" and seq.owner in wanted]
        bins = pack_first_fit_decreasing([len(q.chain.tokens) for q in seqs], self.microbatch_tokens)
        ranks = assign_to_ranks([b.tokens for b in bins], self.ctx.world_size)
        mine = ranks[self.ctx.rank]
        num = prep.response_tokens.shape[0]
        sums = torch.zeros(num, dtype=torch.float64, device=dev)
        mins = torch.full((num,), float("inf"), dtype=torch.float64, device=dev)
        for slot in range(max(len(r) for r in ranks)):
            mb = assemble([seqs[i] for i in bins[mine[slot]].items]) if slot < len(mine) else _dummy_microbatch()
            logp = self.token_logprobs(mb)
            if logp.dim() == 0:
                continue
            log_ratio = safe_log_ratio(logp - mb.rollout_logprobs.to(dev)).double()
            sums.index_add_(0, mb.owner.to(dev), log_ratio)
            mins = torch.minimum(mins, segment_min(log_ratio, mb.owner.to(dev), num))
        sums = torch.tensor(all_reduce_scalars(sums.tolist(), self.ctx), dtype=torch.float64)
        mins = torch.tensor(all_reduce_scalars(mins.tolist(), self.ctx, "min"), dtype=torch.float64)
        mean = sums / prep.response_tokens.to(torch.float64).clamp_min(1.0)
        w = response_factor(lc.offpolicy, mean, mins).float()
        is_split = torch.zeros(num, dtype=torch.bool)
        is_split[split] = True
        return torch.where(is_split, w, torch.full_like(w, float("nan")))

    # --- one update ------------------------------------------------------------------------------------------------

    def train_step(self, batch: TrainBatch) -> TrainMetrics:
        t0 = time.perf_counter()
        dev, lc = self.ctx.device, self.cfg.loss
        reset_peak(dev)
        try:
            prep = prepare_batch(batch, self.cfg, self.version, self.vocab_size, self.microbatch_tokens,
                                 self.replay.shape if self.replay is not None else None)
            self.last_dropped = prep.dropped
            for it in prep.items:  # a chain is never split: one longer than memory allows refuses the step, now
                refuse_oversized(it.tokens, "a chain of this batch", self.memory)
        except ValueError as e:
            raise InvalidBatch(str(e)) from e
        loads = [it.tokens for it in prep.items]
        bins = pack(loads, self.microbatch_tokens)
        bin_loads = [b.tokens for b in bins]
        ranks = assign_to_ranks(bin_loads, self.ctx.world_size)
        mine = ranks[self.ctx.rank]
        slots = max(len(r) for r in ranks)
        adv = prep.advantages.to(dev)
        rcoef = prep.response_coef.to(dev)
        rtok = prep.response_tokens.to(dev)
        xcoef = prep.example_coef.to(dev)
        home, split = _response_homes(prep, bins)
        fixed_w = self._split_offpolicy_weights(prep, split) if split else None
        fixed_w = fixed_w.to(dev) if fixed_w is not None else None
        home = home.to(dev)
        s = _Sums()
        mm = MismatchSums.zeros(prep.response_tokens.shape[0])
        self.optimizer.zero_grad(set_to_none=True)
        kl_coef = self.kl_coef
        for slot in range(slots):
            bin_index = mine[slot] if slot < len(mine) else -1
            if slot < len(mine):
                b = bins[bin_index]
                mb = assemble([seq for i in b.items for seq in prep.items[i].sequences])
                tags = torch.cat([prep.items[i].tags_of(k) for i in b.items for k in range(len(prep.items[i].sequences))])
            else:
                mb = _dummy_microbatch()
            s.tokens += mb.num_tokens
            logp = self.token_logprobs(mb)
            if logp.dim() == 0:  # no loss tokens (the dummy)
                logp.backward()
                continue
            rl = ~mb.is_bc.to(dev)
            owner = mb.owner.to(dev)
            loss = logp.new_zeros(())
            if rl.any():
                out = policy_loss(PolicyLossInputs(
                    logp[rl], mb.rollout_logprobs.to(dev)[rl], owner[rl], adv, rcoef,
                    lc.eps_low, lc.eps_high, lc.offpolicy, response_tokens=rtok, fixed_offpolicy_weight=fixed_w))
                accumulate(mm, logp[rl].detach() - mb.rollout_logprobs.to(dev)[rl], out.correction, tags[rl.cpu()],
                           owner[rl])
                loss = loss + out.loss
                s.policy += float(out.loss.detach())
                s.rl_tokens += out.tokens
                s.clip_low += out.clipped_low
                s.clip_high += out.clipped_high
                s.ratio_sum += out.ratio_sum
                s.ratio_min = min(s.ratio_min, out.ratio_min)
                s.ratio_max = max(s.ratio_max, out.ratio_max)
                present = torch.unique(owner[rl])
                present = present[home[present] == bin_index]  # a split response's weight is counted once
                s.w.extend(out.offpolicy_weight[present].tolist())
                if kl_coef > 0:  # (a zero coefficient would stay zero under the multiplicative controller)
                    with torch.no_grad(), self.reference_policy():
                        ref = self.token_logprobs(mb)[rl]  # the reference: the same base, the init or no adapter
                    kl, k_tok = kl_penalty(KlInputs(logp[rl], ref, owner[rl], rcoef, rtok))
                    loss = loss + kl_coef * kl
                    s.kl += float(kl.detach())
                    s.kl_tokens_sum += float(k_tok.sum())
            bc = mb.is_bc.to(dev)
            if bc.any():
                bc_loss = behaviour_cloning(BcInputs(logp[bc], owner[bc], xcoef))
                loss = loss + lc.bc_coef * bc_loss
                s.bc += float(bc_loss.detach())
                s.bc_tokens += int(bc.sum())
            loss.backward()

        if self.replay is not None:  # the last backward is done: no later forward may meet this step's routes
            self.replay.load(None)
        allreduce_adapter_grads(self.adapter_params, self.ctx)
        grad_norm = float(torch.nn.utils.clip_grad_norm_(self.adapter_params, self.cfg.optim.max_grad_norm))
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)

        # metrics: sums over ranks, then ratios
        (policy, kl, bc, kl_tok, rl_tok, bc_tok, c_lo, c_hi, r_sum, tokens, w_sum, w_n) = all_reduce_scalars(
            [s.policy, s.kl, s.bc, s.kl_tokens_sum, s.rl_tokens, s.bc_tokens, s.clip_low, s.clip_high,
             s.ratio_sum, s.tokens, sum(s.w), len(s.w)], self.ctx)
        r_max, w_max = all_reduce_scalars([s.ratio_max, max(s.w, default=float("-inf"))], self.ctx, "max")
        r_min, w_min = all_reduce_scalars([s.ratio_min, min(s.w, default=float("inf"))], self.ctx, "min")
        mismatch = summarize(all_reduce_scalars(mm.vector.tolist(), self.ctx),
                             all_reduce_scalars(mm.response_tokens.tolist(), self.ctx),
                             all_reduce_scalars(mm.response_kept.tolist(), self.ctx))
        kl_mean = kl_tok / rl_tok if rl_tok else 0.0
        if lc.kl_adaptive and rl_tok:
            self.kl_coef = adapt_kl_coef(AdaptiveKlInputs(kl_coef, kl_mean, lc.kl_target, lc.kl_horizon))
        if prep.items:  # nothing trained (all stale / too long): the policy, and so its version, is unchanged
            self.version += 1
            self.adapter_path = self.cfg.output_dir / f"v{self.version}"
            if self.ctx.is_main:
                save_adapter(self.model, self.adapter_path, self.version, self.cfg.lora, self.cfg.base_model_name)
        elapsed = time.perf_counter() - t0
        peak, peak_kind = read_peak(dev)
        finite = lambda x: x if abs(x) != float("inf") else 0.0  # noqa: E731 - empty sets report 0, not inf
        return TrainMetrics(
            loss_total=policy + kl_coef * kl + lc.bc_coef * bc,
            loss_policy=policy, loss_kl=kl, loss_bc=bc,
            kl_coef=kl_coef, kl_coef_next=self.kl_coef, bc_coef=lc.bc_coef, kl_mean=kl_mean,
            clip_frac_low=c_lo / rl_tok if rl_tok else 0.0,
            clip_frac_high=c_hi / rl_tok if rl_tok else 0.0,
            ratio_mean=r_sum / rl_tok if rl_tok else 0.0,
            ratio_min=finite(r_min), ratio_max=finite(r_max),
            offpolicy_weight_mean=w_sum / w_n if w_n else 0.0,
            offpolicy_weight_min=finite(w_min), offpolicy_weight_max=finite(w_max),
            trajectories_trained=prep.trajectories,
            stale_trajectories_dropped=prep.stale_dropped,
            too_long_trajectories_dropped=prep.too_long_dropped,
            sft_examples_trained=prep.sft_examples,
            chains=prep.chains,
            rl_loss_tokens=int(rl_tok), bc_loss_tokens=int(bc_tok), tokens=int(tokens),
            microbatches=len(bins),
            microbatch_fill=fill_ratio(bins, self.microbatch_tokens),
            rank_balance=rank_balance(bin_loads, ranks),
            grad_norm=grad_norm,
            step_seconds=elapsed,
            tokens_per_s=tokens / elapsed if elapsed > 0 else 0.0,
            peak_memory_bytes=peak, peak_memory_kind=peak_kind,
            memory_budget_bytes=self.memory.budget_bytes, microbatch_max_tokens=self.microbatch_tokens,
            offpolicy_mode=lc.offpolicy.mode, **mismatch,
        )
