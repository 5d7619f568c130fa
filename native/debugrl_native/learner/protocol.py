"""Typed messages between the GPU activity worker and the learner service (see service.py for the transport).

Requests carry `type` (discriminator) and `request_id` (echoed back). A train step carries its batch inline or, for
batches too large for one line (the claim-check pattern), as the path of a JSON file holding a `TrainBatch`.
"""

from __future__ import annotations

import base64
import binascii
import math
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


def routed_token_count(packed: str, layers: int, top_k: int) -> int:
    """Tokens in a base64 string of little-endian int16 expert ids, `layers * top_k` per token (RoutedExperts)."""
    try:
        raw = base64.b64decode(packed, validate=True)
    except (binascii.Error, ValueError) as e:
        raise ValueError(f"routed experts are not valid base64: {e}") from e
    per_token = 2 * layers * top_k
    if len(raw) % per_token:
        raise ValueError(f"routed experts hold {len(raw)} bytes, not a whole number of tokens of {layers} layers x "
                         f"{top_k} experts x 2 bytes")
    return len(raw) // per_token


class RoutedExperts(_Msg):
    """Rollout routing replay (R3): the experts the inference server's router chose for a step's tokens, so that the
    learner's forward can route them the same way (LearnerConfig.routing_replay; docs/routing-replay.md).

    Per token in order, per MoE layer in model order, `top_k` expert ids, packed as little-endian int16 and base64
    encoded (as SGLang packs them; vLLM returns int16 ids). Packed because a JSON list of ints would be over 20 MB per
    16k-token turn of a 48-layer, top-8 model. The learner checks `layers`, `top_k` and the ids against its model."""

    layers: int = Field(ge=1)
    top_k: int = Field(ge=1)
    # All of prompt_ids' tokens; None: the server reported none (the learner's router routes them).
    prompt: str | None = None
    # completion_ids' tokens: all of them, or all but the last, which a server never forwards (it only sampled it,
    # and no logprob depends on how it is routed).
    completion: str


class Step(_Msg):
    """One model call of a trajectory: what it saw, what it sampled, and the logprobs the inference server reported."""

    prompt_ids: list[Annotated[int, Field(ge=0)]] = Field(min_length=1)
    completion_ids: list[Annotated[int, Field(ge=0)]]
    completion_logprobs: list[float]
    policy_version: int = Field(ge=0)
    # Per completion token, whether constrained decoding forced it (the only token the grammar allowed there: the
    # tool-call prefix and suffix, EOS), as the inference server reported it. None: not reported (every token is
    # treated as sampled). Forced tokens are not the policy's choice; see LossConfig.train_forced_tokens.
    completion_forced: list[bool] | None = None
    # The experts the server routed this step's tokens to (MoE models, R3). None: not reported.
    routed_experts: RoutedExperts | None = None

    @model_validator(mode="after")
    def _aligned(self) -> Step:
        if len(self.completion_ids) != len(self.completion_logprobs):
            raise ValueError(f"{len(self.completion_ids)} completion tokens but "
                             f"{len(self.completion_logprobs)} completion logprobs")
        if self.completion_forced is not None and len(self.completion_forced) != len(self.completion_ids):
            raise ValueError(f"{len(self.completion_ids)} completion tokens but "
                             f"{len(self.completion_forced)} forced flags")
        bad = [x for x in self.completion_logprobs if not math.isfinite(x) or x > 0.0]
        if bad:
            raise ValueError(f"completion logprobs must be finite and <= 0, got e.g. {bad[0]}")
        if self.routed_experts is not None:
            self._routes_cover_the_tokens(self.routed_experts)
        return self

    def _routes_cover_the_tokens(self, r: RoutedExperts) -> None:
        n_prompt, n_completion = len(self.prompt_ids), len(self.completion_ids)
        if r.prompt is not None and (got := routed_token_count(r.prompt, r.layers, r.top_k)) != n_prompt:
            raise ValueError(f"routed experts cover {got} prompt tokens but the step has {n_prompt}")
        got = routed_token_count(r.completion, r.layers, r.top_k)
        if got not in (n_completion, max(n_completion - 1, 0)):
            raise ValueError(f"routed experts cover {got} completion tokens but the step has {n_completion} "
                             f"(all of them, or all but the last, are accepted)")


class Trajectory(_Msg):
    trajectory_id: str = Field(min_length=1)
    reward: float = Field(allow_inf_nan=False)
    steps: list[Step] = Field(min_length=1)


class Group(_Msg):
    """Trajectories of one task/prompt: GRPO's comparison set (the seed used 12, sealing partial groups at >= 8)."""

    group_id: str = Field(min_length=1)
    trajectories: list[Trajectory] = Field(min_length=1)


class SftExample(_Msg):
    """A replayed SFT example for the behaviour-cloning term: tokens and which of them are assistant tokens."""

    example_id: str = Field(min_length=1)
    token_ids: list[Annotated[int, Field(ge=0)]] = Field(min_length=2)
    assistant_mask: list[bool]

    @model_validator(mode="after")
    def _aligned(self) -> SftExample:
        if len(self.assistant_mask) != len(self.token_ids):
            raise ValueError("assistant_mask must have one flag per token")
        if self.assistant_mask[0]:
            raise ValueError("the first token cannot be an assistant (trained) token: nothing predicts it")
        return self


class TrainBatch(_Msg):
    groups: list[Group] = Field(default_factory=list)
    sft_examples: list[SftExample] = Field(default_factory=list)

    @model_validator(mode="after")
    def _not_empty(self) -> TrainBatch:
        if not self.groups and not self.sft_examples:
            raise ValueError("a train batch needs at least one group or one SFT example")
        return self


class InlineBatch(_Msg):
    kind: Literal["inline"] = "inline"
    batch: TrainBatch


class FileBatch(_Msg):
    kind: Literal["file"] = "file"
    path: Path  # a JSON file holding one TrainBatch


BatchSource = Annotated[InlineBatch | FileBatch, Field(discriminator="kind")]


class TrainStepRequest(_Msg):
    type: Literal["train_step"] = "train_step"
    request_id: str = Field(min_length=1)
    batch: BatchSource


class ScoreSequence(_Msg):
    """A prompt and a completion to score: the learner's log pi(completion token | everything before it)."""

    prompt_ids: list[Annotated[int, Field(ge=0)]] = Field(min_length=1)
    completion_ids: list[Annotated[int, Field(ge=0)]] = Field(min_length=1)


class ScoreRequest(_Msg):
    """Score sequences with the current adapter, no gradient. The worker's canary (does the inference server serve the
    adapter the learner just wrote?) and the lag-0 check of stored rollout logprobs both use it."""

    type: Literal["score"] = "score"
    request_id: str = Field(min_length=1)
    sequences: list[ScoreSequence] = Field(min_length=1)


class StatusRequest(_Msg):
    type: Literal["status"] = "status"
    request_id: str = Field(min_length=1)


class ShutdownRequest(_Msg):
    type: Literal["shutdown"] = "shutdown"
    request_id: str = Field(min_length=1)


class SftStepRequest(_Msg):
    """One SFT optimizer step (sft.py): assistant-only NLL on the examples of a tokens JSONL file (claim check: the
    file, not the tokens, travels), at learning rate `lr` (the caller's schedule)."""

    type: Literal["sft_step"] = "sft_step"
    request_id: str = Field(min_length=1)
    examples_path: Path
    lr: float = Field(gt=0.0, le=1.0)


class SftEvalRequest(_Msg):
    """Mean assistant-token NLL of a tokens JSONL file under the current adapter, no gradient (held-out loss)."""

    type: Literal["sft_eval"] = "sft_eval"
    request_id: str = Field(min_length=1)
    examples_path: Path


class SaveAdapterRequest(_Msg):
    """Write the current adapter (and the optimizer state beside it, for resuming) to <output_dir>/<name>."""

    type: Literal["save_adapter"] = "save_adapter"
    request_id: str = Field(min_length=1)
    name: str = Field(pattern=r"^[\w.-]{1,100}$")


class SftEpochRequest(_Msg):
    """One whole SFT epoch (sft.py `sft_epoch`): the learner shuffles the train examples (by `seed` and `epoch`, so a
    retried epoch trains the same batches), steps through them `batch_examples` at a time on the linear warm-up +
    cosine schedule over all `epochs`, measures the held-out loss, and saves the adapter as <output_dir>/epoch-<N>.
    The defaults here are the only SFT hyperparameters: callers send a field only to override it."""

    type: Literal["sft_epoch"] = "sft_epoch"
    request_id: str = Field(min_length=1)
    train_path: Path  # a tokens JSONL file (`debugrl sft build`'s train.tokens.jsonl)
    heldout_path: Path | None = None  # its heldout.tokens.jsonl; None or an empty file: no held-out loss
    epoch: int = Field(ge=1)
    epochs: int = Field(ge=1)
    # Peak learning rate; LoRA fine-tunes usually sit near 1e-4 to 5e-4.
    lr: float = Field(2e-4, gt=0.0, le=1.0)
    warmup_steps: int = Field(2, ge=0)
    # Examples per optimizer step (each step packs them into microbatches of at most packing.max_tokens).
    batch_examples: int = Field(8, ge=1)
    seed: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _in_range(self) -> SftEpochRequest:
        if self.epoch > self.epochs:
            raise ValueError(f"epoch {self.epoch} of {self.epochs}: the epoch is past the last one")
        return self


class ChatMessage(_Msg):
    role: Literal["system", "user", "assistant"]
    content: str


# The fixed conversation both sides render for the chat-template check (tokenizer_check.py): a system prompt, a user
# turn, an assistant reply, and a second user turn, so every role's header and end-of-turn token is compared.
PROBE_CONVERSATION: tuple[ChatMessage, ...] = (
    ChatMessage(role="system", content="You fix Python bugs with a debugger."),
    ChatMessage(role="user", content="The test fails: assert add(2, 2) == 4"),
    ChatMessage(role="assistant", content="Let me set a breakpoint in add."),
    ChatMessage(role="user", content="It returned 5."),
)


class ServingFacts(_Msg):
    """What the inference server says about its tokenizer. Given these, the learner checks at start-up, before any
    rollout, that its own tokenizer (from the model directory) agrees (tokenizer_check.py); a mismatch names what
    differs."""

    # Tokens the server's tokenizer knows, added tokens included (len(tokenizer)); None: the server does not say (vLLM
    # reports no vocabulary size), so only its ids are checked against the model's embedding rows.
    vocab_size: int | None = Field(None, ge=1)
    special_tokens: dict[str, int]  # every special token's text -> its id
    chat_messages: list[ChatMessage] = Field(default_factory=lambda: list(PROBE_CONVERSATION))
    # The server's own ids for chat_messages rendered by its chat template (no generation prompt). None: not checked.
    chat_token_ids: list[Annotated[int, Field(ge=0)]] | None = None


Request = Annotated[TrainStepRequest | ScoreRequest | StatusRequest | ShutdownRequest | SftStepRequest | SftEvalRequest
                    | SaveAdapterRequest | SftEpochRequest, Field(discriminator="type")]


# --- responses -------------------------------------------------------------------------------------------------------


class TrainMetrics(_Msg):
    # loss terms (full-batch values: each is the sum over microbatches and ranks of its globally weighted parts)
    loss_total: float
    loss_policy: float
    loss_kl: float  # the KL term before its coefficient
    loss_bc: float  # the BC term before its coefficient
    kl_coef: float  # coefficient used in this step
    kl_coef_next: float  # after the adaptive update
    bc_coef: float
    kl_mean: float  # mean per-token k3 KL to the reference over RL tokens
    # clipping and ratios, over RL loss tokens
    clip_frac_low: float
    clip_frac_high: float
    ratio_mean: float
    ratio_min: float
    ratio_max: float
    offpolicy_weight_mean: float
    offpolicy_weight_min: float
    offpolicy_weight_max: float
    # off-policy correction and train/serve mismatch (mismatch.py has the formulas), over RL loss tokens at the
    # pre-update weights. k3 = rho - 1 - log rho, rho = pi_learner / pi_served: estimates KL(pi_served || pi_learner).
    # Buckets: lag 0,1,2,3,4+; turn 0,1,2-3,4-7,8-15,16+; trajectory completion tokens <256,<1024,<4096,4096+.
    # None: no token in that set (nothing measured).
    offpolicy_mode: str = "seed_clamp"
    mismatch_k3: float | None = None
    mismatch_k3_lag0: float | None = None
    offpolicy_ess: float = 0.0  # (sum m)^2 / (n sum m^2) of the tokens' correction weights m_t
    masked_token_frac: float = 0.0
    masked_response_frac: float = 0.0  # responses none of whose tokens is left in the loss
    clipped_token_frac: float = 0.0  # weights bounded (truncated or clamped), not removed
    mismatch_k3_by_lag: list[float | None] = Field(default_factory=list)
    masked_frac_by_lag: list[float | None] = Field(default_factory=list)
    mismatch_k3_by_turn: list[float | None] = Field(default_factory=list)
    masked_frac_by_turn: list[float | None] = Field(default_factory=list)
    mismatch_k3_by_length: list[float | None] = Field(default_factory=list)
    masked_frac_by_length: list[float | None] = Field(default_factory=list)
    # what was trained and what was refused
    trajectories_trained: int
    stale_trajectories_dropped: int
    too_long_trajectories_dropped: int
    sft_examples_trained: int
    chains: int
    rl_loss_tokens: int
    bc_loss_tokens: int
    tokens: int  # all tokens forwarded, every rank
    microbatches: int
    microbatch_fill: float
    rank_balance: float  # max rank tokens / mean
    grad_norm: float  # before clipping
    # speed and memory
    step_seconds: float
    tokens_per_s: float
    # This step's peak: CUDA's allocator peak, the process's resident peak since the step began (Linux VmHWM, reset
    # at the step's start), or, where that cannot be reset, the process's lifetime peak.
    peak_memory_bytes: int
    peak_memory_kind: Literal["cuda_max_allocated", "process_peak_rss", "process_max_rss"]
    memory_budget_bytes: int  # the budget the microbatches were sized for (memory.py)
    microbatch_max_tokens: int  # the largest microbatch that budget allows (<= packing.max_tokens)


class DroppedTrajectory(_Msg):
    """A trajectory the learner left out of a step, and why: the one place the policy-lag rule is applied (the caller
    only counts what comes back here). `policy-lag`: its oldest step is more than loss.max_policy_lag versions behind
    (`lag` says by how many); `too-long`: a chain longer than packing.max_tokens."""

    trajectory_id: str
    group_id: str
    reason: Literal["policy-lag", "too-long"]
    lag: int


class TrainStepResponse(_Msg):
    type: Literal["train_step_result"] = "train_step_result"
    request_id: str
    policy_version: int  # the version of the adapter just written (unchanged if nothing was trainable)
    adapter_path: str | None  # PEFT directory for vLLM's POST /v1/load_lora_adapter; None before any update
    metrics: TrainMetrics
    dropped: list[DroppedTrajectory] = Field(default_factory=list)


class ScoreResponse(_Msg):
    type: Literal["score_result"] = "score_result"
    request_id: str
    policy_version: int  # the adapter that scored
    logprobs: list[list[float]]  # one list per sequence, one logprob per completion token


class StatusResponse(_Msg):
    type: Literal["status"] = "status"
    request_id: str
    policy_version: int
    adapter_path: str | None
    world_size: int
    device: str
    trainable_parameters: int


class ReadyMessage(_Msg):
    """Written once at start-up, before any request is read."""

    type: Literal["ready"] = "ready"
    policy_version: int
    world_size: int
    device: str
    trainable_parameters: int


class ShutdownResponse(_Msg):
    type: Literal["shutdown"] = "shutdown"
    request_id: str


class ErrorResponse(_Msg):
    """`invalid_request`: the caller's fault, do not retry the same message. `internal`: the learner failed."""

    type: Literal["error"] = "error"
    request_id: str | None
    error_kind: Literal["invalid_request", "internal"]
    message: str


class SftStepResponse(_Msg):
    type: Literal["sft_step_result"] = "sft_step_result"
    request_id: str
    loss: float  # mean NLL over the step's assistant tokens
    tokens: int  # assistant (trained) tokens
    examples: int
    microbatches: int
    microbatch_fill: float
    grad_norm: float
    too_long_dropped: int


class SftEvalResponse(_Msg):
    type: Literal["sft_eval_result"] = "sft_eval_result"
    request_id: str
    loss: float
    tokens: int


class SftProgress(_Msg):
    """Written during a long request (an SFT epoch) after each optimizer step, before its one response; the caller
    shows it (heartbeat details) and waits on."""

    type: Literal["progress"] = "progress"
    request_id: str
    step: int  # steps done in this epoch
    of: int
    mean_loss: float


class SftEpochResponse(_Msg):
    type: Literal["sft_epoch_result"] = "sft_epoch_result"
    request_id: str
    epoch: int
    steps: int
    train_loss: float  # mean of the steps' losses
    held_out_loss: float | None  # None: no held-out examples
    adapter_path: str
    policy_version: int
    too_long_dropped: int


class SaveAdapterResponse(_Msg):
    type: Literal["adapter_saved"] = "adapter_saved"
    request_id: str
    adapter_path: str


Response = Annotated[
    TrainStepResponse | ScoreResponse | StatusResponse | ReadyMessage | ShutdownResponse | ErrorResponse
    | SftStepResponse | SftEvalResponse | SaveAdapterResponse | SftProgress | SftEpochResponse, Field(discriminator="type")
]
