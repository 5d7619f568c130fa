"""Continuous batching: one thread owns the model and advances every active sequence by one forward per step.

Each iteration of the scheduler thread:
1. drops sequences whose client went away (their KV buffer is freed and never stored);
2. runs queued adapter loads/unloads whose adapter no active sequence uses (a replacement of `pol` waits for the
   sequences decoding with the old `pol`, and holds back new ones for it, so no forward ever sees weights change);
3. admits waiting requests (up to `max_batch` active): each gets its own KV buffer, seeded with the longest cached
   prefix of its prompt (kv_cache.py's radix tree, shared by every conversation under the same adapter load) or of a
   running sequence's cache under the same adapter load; a request whose
   prompt shares a longer prefix with a sequence still prefilling it waits a step or two and copies it instead of
   computing it twice (the 8 samples of a GRPO group, or episodes that share the system prompt and tool list);
4. runs ONE forward per adapter group over the new tokens of every active sequence (batched_forward.py): one token
   per decoding sequence, several for a forced run of the tool-call constraint, and a chunk of the prompt for a
   sequence still prefilling (chunks share `step_tokens` per step, so a long prefill never stalls the others for
   more than one chunk);
5. samples each sequence's next token(s) with its own parameters, torch.Generator, constraint and stop conditions.

Adapters: grouped, not batched multi-LoRA. In RL nearly every concurrent request uses the same policy version, so one
group per step is the common case, and each group runs PEFT's own LoRA layers exactly as the learner does (what the
publish canary compares against). A batched multi-LoRA forward (Punica/S-LoRA style) would re-implement LoRA outside
PEFT to save one extra weight read per extra adapter group per step, which only matters when several versions are
served at once (evaluation of base vs trained), and then costs at most one more forward per step.

Logprobs of a forced run [t0, ..., tk]: t0's from the logits that chose it, each later token's from the logits after
the token before it, which the forward of the run produces; the last token of a finished reply is never fed (nothing
is predicted from it). This is exactly the single-request engine's rule, so served logprobs do not change.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from ..cpu_share import CpuShare
from .adapters import AdapterSet
from .batched_forward import Feed, forward
from .constrained import ToolCallConstraint
from .kv_cache import KVStore, SequenceKV, common_prefix
from .sampling import SamplingParams, choose_token, token_logprobs
from .vocab import Vocab

log = logging.getLogger("debugrl.inference")

DEFAULT_STEP_TOKENS = 256  # new tokens per forward: decode tokens first, prefill chunks share the rest
DEFAULT_MAX_BATCH = 16
MIN_PREFILL_CHUNK = 32  # a prefilling sequence advances at least this much per step, however many decode
DEFER_MIN_TOKENS = 32  # wait for a running prefill that will cover at least this many more of our prompt
# A step of at most this many new tokens (decoding only) runs, sampling included, on the threads the rest of the
# machine leaves free (cpu_share.py): one when another process is busy, because MKL's threaded sgemm with 2-16 rows on
# a busy 2-core machine waits for a descheduled thread (3-100 ms per projection instead of ~1 ms on one thread,
# benchmarks/inference.md); every thread on a quiet machine. Prefill chunks keep every thread.
SMALL_STEP_MAX_TOKENS = 64


class RequestError(Exception):
    """The request cannot be served as asked: HTTP `status` with a message for the client."""

    def __init__(self, status: int, message: str, param: str | None = None):
        super().__init__(message)
        self.status, self.message, self.param = status, message, param


@dataclass
class Generation:
    token_ids: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    forced: list[bool] = field(default_factory=list)  # per token: the grammar allowed nothing else (scheduler._next_tokens)
    top: list[list[tuple[int, float]]] = field(default_factory=list)
    finish_reason: str = "length"
    prefill_tokens: int = 0  # prompt tokens actually run through the model
    cached_tokens: int = 0  # prompt tokens whose KV came from a cache
    stale_kv_tokens: int = 0  # of those, computed under another adapter version: 0 by construction
    policy_version: int = 0
    prefill_s: float = 0.0  # from admission to the first token's logits
    decode_s: float = 0.0
    queued_s: float = 0.0


@dataclass(eq=False)
class Sequence:
    prompt: list[int]
    max_tokens: int
    params: SamplingParams
    rng: torch.Generator
    adapter: str | None
    constraint: ToolCallConstraint | None = None
    top_logprobs: int = 0
    gen: Generation = field(default_factory=Generation)
    owner: str | None = None
    kv: SequenceKV | None = None
    feed: list[int] = field(default_factory=list)  # decoding: tokens to run in the next step
    awaiting: list[int] = field(default_factory=list)  # generated tokens whose logprobs the next forward gives
    finishing: bool = False  # the next forward only fills `awaiting`'s logprobs
    decoding: bool = False
    cancelled: bool = False
    error: Exception | None = None
    done: threading.Event = field(default_factory=threading.Event)
    t_submit: float = field(default_factory=time.perf_counter)
    t_admit: float = 0.0
    t_first: float = 0.0

    def kv_ids(self) -> list[int]:
        """The tokens whose keys/values the buffer holds."""
        n = self.kv.length
        return self.prompt[:n] if n <= len(self.prompt) else self.prompt + self.gen.token_ids[: n - len(self.prompt)]


@dataclass
class Op:
    fn: Callable[[], object]
    names: frozenset[str]
    done: threading.Event = field(default_factory=threading.Event)
    result: object = None
    error: BaseException | None = None


@dataclass
class StepStats:
    steps: int = 0
    forward_s: float = 0.0
    sample_s: float = 0.0  # logprobs, constraint masks, sampling
    constraint_s: float = 0.0  # of sample_s: the tool-call constraint's own calls (forced runs, allowed ids, accepts)
    other_s: float = 0.0  # admission (cache copies), bookkeeping
    prefill_step_s: float = 0.0  # forward + sampling of steps that carried a prompt chunk (prefill-bound time)
    decode_step_s: float = 0.0  # the same for steps that only decoded
    decode_tokens: int = 0
    prefill_tokens: int = 0
    completed: int = 0
    cancelled: int = 0
    failed: int = 0
    max_active: int = 0
    small_steps: int = 0  # decode-only steps of <= SMALL_STEP_MAX_TOKENS tokens with more than one thread configured
    small_steps_one_thread: int = 0  # of those, the ones run on one thread because the machine was busy


class Scheduler:
    def __init__(self, adapters: AdapterSet, store: KVStore, vocab: Vocab, prefix_cache: bool = True,
                 step_tokens: int = DEFAULT_STEP_TOKENS, max_batch: int = DEFAULT_MAX_BATCH):
        self.adapters, self.store, self.vocab = adapters, store, vocab
        self.prefix_cache, self.step_tokens, self.max_batch = prefix_cache, step_tokens, max_batch
        self.cv = threading.Condition()
        self.waiting: deque[Sequence] = deque()
        self.ops: deque[Op] = deque()
        self.active: list[Sequence] = []
        self.stats = StepStats()
        self.cpu_share = CpuShare()
        self._thread: threading.Thread | None = None

    # -- called from request threads ------------------------------------------------------------------------------

    def submit(self, seq: Sequence) -> None:
        with self.cv:
            self._ensure_thread()
            self.waiting.append(seq)
            self.cv.notify()

    def cancel(self, seq: Sequence) -> None:
        with self.cv:
            seq.cancelled = True
            self.cv.notify()

    def call(self, fn: Callable[[], object], names: set[str]) -> object:
        """Run fn on the scheduler thread between two steps, once no active sequence uses any of `names`."""
        op = Op(fn, frozenset(names))
        with self.cv:
            self._ensure_thread()
            self.ops.append(op)
            self.cv.notify()
        op.done.wait()
        if op.error is not None:
            raise op.error
        return op.result

    def health(self) -> dict:
        return {"active": len(self.active), "waiting": len(self.waiting), "pending_adapter_ops": len(self.ops),
                "step_tokens": self.step_tokens, "max_batch": self.max_batch, **vars(self.stats)}

    def _ensure_thread(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="debugrl-scheduler", daemon=True)
            self._thread.start()

    # -- the scheduler thread -------------------------------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            with self.cv:
                while not (self.waiting or self.ops or self.active):
                    self.cv.wait()
            try:
                self._iteration()
            except Exception:  # pragma: no cover - a bug: fail what is running, keep serving
                log.exception("scheduler iteration failed")
                for seq in list(self.active):
                    self._fail(seq, RuntimeError("internal error in the scheduler (see the server log)"))

    def _iteration(self) -> None:
        t0 = time.perf_counter()
        with self.cv:
            for seq in [s for s in self.waiting if s.cancelled]:
                self.waiting.remove(seq)
                self._end(seq, RequestError(499, "client closed the request"), cancelled=True)
        for seq in [s for s in self.active if s.cancelled]:
            self.active.remove(seq)
            self._end(seq, RequestError(499, "client closed the request"), cancelled=True)
        self._run_ops()
        self._admit()
        self.stats.other_s += time.perf_counter() - t0
        if not self.active:
            with self.cv:  # nothing to run: wait for a request, a cancel or a runnable op
                if not self.waiting or all(self._held(s) for s in self.waiting):
                    self.cv.wait(timeout=0.5)
            return
        self._step()

    def _run_ops(self) -> None:
        in_use = {s.adapter for s in self.active}
        blocked: set[str] = set()
        with self.cv:
            ops = list(self.ops)
        for op in ops:
            if op.names & (in_use | blocked):
                blocked |= op.names  # keeps the order of ops on the same name
                continue
            try:
                op.result = op.fn()
            except BaseException as e:  # handed to the caller's thread
                op.error = e
            with self.cv:
                self.ops.remove(op)
            op.done.set()

    def _held(self, seq: Sequence) -> bool:
        return seq.adapter is not None and any(seq.adapter in op.names for op in self.ops)

    def _admit(self) -> None:
        with self.cv:
            candidates = [s for s in self.waiting if not self._held(s)]
        for seq in candidates:
            if len(self.active) >= self.max_batch:
                break
            if seq.adapter is not None and seq.adapter not in self.adapters.loaded:
                with self.cv:
                    self.waiting.remove(seq)
                self._end(seq, RequestError(404, f"model: no adapter named {seq.adapter!r} is loaded "
                                                 f"(loaded: {sorted(self.adapters.loaded) or 'none'})", "model"))
                continue
            owner = self.adapters.owner(seq.adapter)
            if self.prefix_cache and self._should_wait(seq, owner):
                continue
            with self.cv:
                self.waiting.remove(seq)
            seq.owner = owner
            seq.gen.policy_version = self.adapters.version(seq.adapter)
            seq.t_admit = time.perf_counter()
            donors = [(s.owner, s.kv_ids(), s.kv.data) for s in self.active]
            seq.kv, seq.gen.cached_tokens, seq.gen.stale_kv_tokens = self.store.seed(
                owner, seq.prompt, len(seq.prompt) + seq.max_tokens, enabled=self.prefix_cache, donors=donors)
            seq.gen.prefill_tokens = len(seq.prompt) - seq.gen.cached_tokens
            self.active.append(seq)
        self.stats.max_active = max(self.stats.max_active, len(self.active))

    def _should_wait(self, seq: Sequence, owner: str | None) -> bool:
        """A running sequence of the same adapter load is still prefilling a longer prefix of our prompt than any
        cache holds now: copying it in a step or two beats computing it again."""
        prompt = torch.tensor(seq.prompt, dtype=torch.long)
        limit = len(seq.prompt) - 1
        have = max([min(common_prefix(torch.tensor(s.kv_ids(), dtype=torch.long), prompt), limit)
                    for s in self.active if s.owner == owner] + [0])
        have = max(have, self.store.match_length(owner, prompt, limit))
        for s in self.active:
            if s.owner == owner and not s.decoding:
                coming = min(common_prefix(torch.tensor(s.prompt, dtype=torch.long), prompt), limit)
                if coming - have >= DEFER_MIN_TOKENS:
                    return True
        return False

    def _step(self) -> None:
        groups: dict[str | None, list[Sequence]] = {}
        for seq in self.active:
            groups.setdefault(seq.owner, []).append(seq)
        for members in groups.values():
            self._step_group(members)

    def _step_group(self, members: list[Sequence]) -> None:
        t0 = time.perf_counter()
        feeds: list[tuple[Sequence, Feed, bool]] = []  # (sequence, feed, is the prompt's last chunk)
        budget = self.step_tokens
        for seq in members:
            if seq.decoding:
                feeds.append((seq, Feed(seq.kv, seq.feed, "all"), False))
                budget -= len(seq.feed)
        first = True
        for seq in members:
            if not seq.decoding:
                rest = seq.prompt[seq.kv.length :]
                take = max(budget, MIN_PREFILL_CHUNK) if first else budget
                if take <= 0:
                    break
                first = False
                chunk = rest[:take]
                last = len(chunk) == len(rest)
                feeds.append((seq, Feed(seq.kv, chunk, "last" if last else "none"), last))
                budget -= len(chunk)
                self.stats.prefill_tokens += len(chunk)
        if not feeds:
            return
        threads = torch.get_num_threads()
        small = threads > 1 and sum(len(f.ids) for _, f, _ in feeds) <= SMALL_STEP_MAX_TOKENS
        use = self.cpu_share.threads(threads) if small else threads
        if use != threads:
            torch.set_num_threads(use)
        self.stats.small_steps += int(small)
        self.stats.small_steps_one_thread += int(small and use == 1)
        try:
            self._run_group(members, feeds, t0)
        finally:
            if use != threads:
                torch.set_num_threads(threads)

    def _run_group(self, members: list[Sequence], feeds: list[tuple[Sequence, Feed, bool]], t0: float) -> None:
        try:
            with self.adapters.active(members[0].adapter) as model:
                t1 = time.perf_counter()
                logits = forward(model, [f for _, f, _ in feeds])
                t2 = time.perf_counter()
        except Exception as e:
            log.exception("forward failed for %d sequences", len(feeds))
            for seq, _, _ in feeds:
                self._fail(seq, e)
            return
        for (seq, feed, last), rows in zip(feeds, logits):
            try:
                if seq.decoding:
                    self.stats.decode_tokens += len(feed.ids)
                    for j, t in enumerate(seq.awaiting):
                        self._record(seq, t, token_logprobs(rows[j], seq.params.temperature))
                    seq.awaiting = []
                    if seq.finishing:
                        self._finish(seq)
                    else:
                        self._choose(seq, rows[len(feed.ids) - 1])
                elif last:
                    seq.decoding = True
                    seq.t_first = time.perf_counter()
                    self._choose(seq, rows[-1])
            except Exception as e:
                log.exception("sampling failed")
                self._fail(seq, e)
        t3 = time.perf_counter()
        if any(f.logits != "all" for _, f, _ in feeds):  # a prompt chunk ("last"/"none"); decode feeds want "all"
            self.stats.prefill_step_s += t3 - t0
        else:
            self.stats.decode_step_s += t3 - t0
        self.stats.steps += 1
        self.stats.forward_s += t2 - t1
        self.stats.sample_s += t3 - t2
        self.stats.other_s += (t1 - t0)

    def _record(self, seq: Sequence, token: int, dist: torch.Tensor) -> None:
        seq.gen.logprobs.append(float(dist[token]))
        if seq.top_logprobs:
            top = torch.topk(dist, seq.top_logprobs)
            seq.gen.top.append(list(zip(top.indices.tolist(), top.values.tolist())))

    def _choose(self, seq: Sequence, logits: torch.Tensor) -> None:
        gen, c = seq.gen, seq.constraint
        left = seq.max_tokens - len(gen.token_ids)
        if (c is not None and c.done) or left <= 0:
            gen.finish_reason = "tool_calls" if c is not None and c.done else "length"
            self._finish(seq)
            return
        lp = token_logprobs(logits, seq.params.temperature)
        run, forced = self._next_tokens(lp, seq.params, seq.rng, c, left)
        run = run[:left]
        if c is not None:
            t0 = time.perf_counter()
            for t in run:
                c.advance(t)
            self.stats.constraint_s += time.perf_counter() - t0
        ends = (c is not None and c.done) or (c is None and run[-1] in self.vocab.eos_ids) \
            or len(gen.token_ids) + len(run) >= seq.max_tokens
        gen.token_ids.extend(run)
        gen.forced.extend([forced] * len(run))
        self._record(seq, run[0], lp)
        seq.awaiting = run[1:]
        seq.feed = run[:-1] if ends else run
        if ends:
            if c is not None:
                gen.finish_reason = "tool_calls" if c.done else "length"
            else:
                gen.finish_reason = "stop" if run[-1] in self.vocab.eos_ids else "length"
            seq.finishing = True
            if not seq.feed:
                self._finish(seq)

    def _next_tokens(self, lp, params, rng, constraint, left: int) -> tuple[list[int], bool]:
        """The next token(s), and whether the grammar forced them: a forced run (prefix, suffix, EOS), the one token
        the grammar allows, or the completion written for a model that put no mass on any valid token. A forced
        token is not the policy's choice (its probability under the sampling distribution is 1); the learner leaves
        it out of the loss (LossConfig.train_forced_tokens)."""
        if constraint is None:
            return [choose_token(lp, params, rng)], False
        t0 = time.perf_counter()
        forced = constraint.forced_run()
        allowed = None if forced else constraint.allowed_ids()
        self.stats.constraint_s += time.perf_counter() - t0
        if forced:
            return forced, True

        def accepts(i: int) -> bool:
            t = time.perf_counter()
            ok = constraint.accepts(i, left)
            self.stats.constraint_s += time.perf_counter() - t
            return ok

        tid = choose_token(lp, params, rng, allowed=allowed, accepts=accepts)
        if tid is not None:
            return [tid], allowed is not None and len(allowed) == 1
        t0 = time.perf_counter()
        ids = constraint.finish_ids()
        self.stats.constraint_s += time.perf_counter() - t0
        return ids, True

    def _finish(self, seq: Sequence) -> None:
        self.active.remove(seq)
        if self.prefix_cache:
            self.store.put(seq.owner, seq.kv_ids(), seq.kv)
        self.stats.completed += 1
        now = time.perf_counter()
        seq.gen.queued_s = seq.t_admit - seq.t_submit
        seq.gen.prefill_s = (seq.t_first or now) - seq.t_admit
        seq.gen.decode_s = now - (seq.t_first or now)
        seq.kv = None
        seq.done.set()

    def _fail(self, seq: Sequence, error: Exception) -> None:
        if seq in self.active:
            self.active.remove(seq)
        self._end(seq, error)

    def _end(self, seq: Sequence, error: Exception, cancelled: bool = False) -> None:
        if cancelled:
            self.stats.cancelled += 1
        else:
            self.stats.failed += 1
        seq.error = error
        seq.kv = None  # the buffer goes with the sequence; nothing half-computed is ever stored
        seq.done.set()
