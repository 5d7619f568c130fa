"""How many tokens one microbatch may hold so that a training step fits the memory the learner is given.

A step's peak is the fixed part (the base weights, the adapters, their gradients and AdamW's two moments) plus the
activations of the microbatch being trained, which grow linearly in its tokens T:

    peak(T) = fixed + T * per_token
    per_token = logits + layers
    logits    = 6 * V * 4 bytes               (float32 logits, their log-softmax, both gradients in backward, and the
                                               reference pass's logits and log-softmax alive beside them for the KL)
    layers    = L * a          without checkpointing (every layer keeps its activations for backward)
              = L * H * b + a  with gradient checkpointing (each layer keeps only its input; one layer is recomputed)
    a         = (6 * H + 4 * Q + 4 * KV + 5 * I_eff) * b   one decoder layer's saved activations per token: the
                                               norms' inputs and outputs, q/k/v before and after the rotary embedding,
                                               the attention output, the residual, the LoRA inputs, and the MLP's gate,
                                               up, activation input, activation and product (I_eff = I dense,
                                               top_k * I_moe + E for MoE); fitted to the measured cost of a layer
                                               without checkpointing on SmolLM2 (1.5 MB per token for 30 layers)

with V the vocabulary, L layers, H hidden, Q and KV the query and key/value widths, b the bytes of the model's dtype.
On SmolLM2-135M (V = 49,152) the logits dominate with checkpointing: 1.18 MB of its 1.31 MB per token; without it
the 30 layers add 1.7 MB more (benchmarks/learner.md measures both).

The budget is the setting `memory_budget_gb` (config.py); when unset, it is what the machine has: the learner's own
footprint now plus 75 % of the host's available memory (MemAvailable), or 90 % of the GPU's free memory beside what
is already allocated. `max_tokens = min(packing.max_tokens, (budget - fixed) / per_token)`: a batch is packed into
microbatches of at most that many tokens (so a big batch is split into more microbatches), and a chain longer than
that cannot be split, so its step is refused at once with a message naming the setting, never left to swap.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass
from pathlib import Path

import torch

GB = 1024**3
# What the host keeps for everything else (the inference server, the sandboxes, the workers) by default.
HOST_SHARE = 0.75
GPU_SHARE = 0.90
# A microbatch must hold at least this many tokens to be worth a step (LearnerSpec.maxTokens' minimum).
MIN_MICROBATCH_TOKENS = 64


class MemoryBudgetExceeded(ValueError):
    """The model or a microbatch does not fit `memory_budget_gb`."""


@dataclass(frozen=True)
class MemoryPlan:
    budget_bytes: int
    budget_source: str  # "memory_budget_gb" (the setting) or a description of what the machine had
    fixed_bytes: int
    per_token_bytes: int
    max_tokens: int  # microbatch tokens: min(packing.max_tokens, what the budget leaves room for)
    fit_tokens: int  # what the budget alone leaves room for

    def describe(self) -> str:
        return (f"memory budget {self.budget_bytes / GB:.2f} GB ({self.budget_source}); model, adapters and optimizer "
                f"{self.fixed_bytes / GB:.2f} GB; {self.per_token_bytes / 1e6:.2f} MB per microbatch token; "
                f"microbatches of at most {self.max_tokens} tokens")


def _meminfo(field: str) -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def _status(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def current_bytes(device: torch.device) -> int:
    """What the learner holds now: allocated CUDA memory, or the process's resident set on the CPU."""
    if device.type == "cuda":
        return int(torch.cuda.memory_allocated(device))
    return _status("VmRSS") or int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


def machine_budget(device: torch.device) -> tuple[int, str]:
    """The default budget: the footprint now plus a share of what the machine still has free."""
    now = current_bytes(device)
    if device.type == "cuda":
        free, _ = torch.cuda.mem_get_info(device)
        return int(now + GPU_SHARE * free), f"default: {GPU_SHARE:.0%} of the GPU's free {free / GB:.1f} GB"
    avail = _meminfo("MemAvailable")
    if avail is None:  # not Linux: the physical memory, as a last resort
        import os

        avail = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return int(now + HOST_SHARE * avail), f"default: {HOST_SHARE:.0%} of the host's available {avail / GB:.1f} GB"


def _dtype_bytes(dtype: torch.dtype) -> int:
    return torch.tensor([], dtype=dtype).element_size()


def per_token_bytes(config, dtype: torch.dtype, checkpointing: bool) -> int:
    """Activation bytes per microbatch token for a transformers decoder config (the formula in the module docstring)."""
    b = _dtype_bytes(dtype)
    h, layers, vocab = int(config.hidden_size), int(config.num_hidden_layers), int(config.vocab_size)
    heads = int(config.num_attention_heads)
    head_dim = int(getattr(config, "head_dim", None) or h // heads)
    kv = int(getattr(config, "num_key_value_heads", None) or heads) * head_dim
    q = heads * head_dim
    experts = int(getattr(config, "num_experts", 0) or 0)
    if experts:
        inter = int(config.num_experts_per_tok) * int(config.moe_intermediate_size) + experts
    else:
        inter = int(config.intermediate_size)
    layer = (6 * h + 4 * q + 4 * kv + 5 * inter) * b
    layers_total = layers * h * b + layer if checkpointing else layers * layer
    return int(6 * vocab * 4 + layers_total)


def adapter_training_bytes(adapter_params: list[torch.Tensor]) -> int:
    """Gradients and AdamW's two moments of the adapters (created at the first step, so not yet in the footprint)."""
    return 3 * sum(p.numel() * p.element_size() for p in adapter_params)


def plan_memory(*, config, dtype: torch.dtype, checkpointing: bool, device: torch.device, adapter_params: list,
                budget_gb: float | None, packing_max_tokens: int, weights_bytes: int = 0) -> MemoryPlan:
    """Choose the microbatch tokens; refuse at once when not even a small microbatch fits the budget.

    On the CPU the fixed part is the resident set now plus the weights again (`weights_bytes`): safetensors maps a
    checkpoint lazily, so weight pages not yet touched join the resident set during the first step (measured: 0.77 GB
    resident before SmolLM2's first step, 2.32 GB at its peak with 1,024 tokens). It over-counts by at most the
    weights when they are already resident (a GGUF de-quantized in memory)."""
    if budget_gb is not None:
        budget, source = int(budget_gb * GB), "memory_budget_gb"
    else:
        budget, source = machine_budget(device)
    fixed = current_bytes(device) + adapter_training_bytes(adapter_params) + (weights_bytes if device.type != "cuda" else 0)
    return plan_from(budget, source, fixed, per_token_bytes(config, dtype, checkpointing), packing_max_tokens)


def plan_from(budget: int, source: str, fixed: int, per_token: int, packing_max_tokens: int) -> MemoryPlan:
    """fit = (budget - fixed) / per_token; max_tokens = min(packing.max_tokens, fit); too small a fit is refused."""
    fit = max(0, (budget - fixed) // per_token)
    plan = MemoryPlan(budget_bytes=budget, budget_source=source, fixed_bytes=fixed, per_token_bytes=per_token,
                      max_tokens=int(min(packing_max_tokens, fit)), fit_tokens=int(fit))
    if fit < MIN_MICROBATCH_TOKENS:
        raise MemoryBudgetExceeded(
            f"the learner does not fit its memory: {plan.describe()}, which leaves room for {fit} tokens per "
            f"microbatch (at least {MIN_MICROBATCH_TOKENS} needed); raise memory_budget_gb (it was "
            f"{budget / GB:.2f} GB, {source}), or free memory on this machine")
    return plan


def refuse_oversized(tokens: int, what: str, plan: MemoryPlan) -> None:
    """A chain is the unit of packing; one longer than the microbatch cannot be split, so its step is refused."""
    if tokens > plan.max_tokens:
        raise MemoryBudgetExceeded(
            f"{what} has {tokens} tokens, but a microbatch may hold only {plan.max_tokens} ({plan.describe()}); "
            f"raise memory_budget_gb (now {plan.budget_bytes / GB:.2f} GB, {plan.budget_source}) or shorten the "
            "episodes (fewer turns or new tokens)")


# --- peak memory per step ---------------------------------------------------------------------------------------------


def reset_peak(device: torch.device) -> None:
    """Start a step's peak from the current footprint (CUDA's counter, or Linux's VmHWM via /proc/self/clear_refs)."""
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
        return
    try:
        Path("/proc/self/clear_refs").write_text("5")  # 5: reset the peak resident set size to the current one
    except OSError:
        pass


def read_peak(device: torch.device) -> tuple[int, str]:
    """(peak bytes since reset_peak, what was measured)."""
    if device.type == "cuda":
        return int(torch.cuda.max_memory_allocated(device)), "cuda_max_allocated"
    hwm = _status("VmHWM")
    if hwm is not None:
        return hwm, "process_peak_rss"
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024, "process_max_rss"
