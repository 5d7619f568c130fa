"""MoE experts run as grouped GEMMs instead of a Python loop over experts.

How transformers 5.24 stores Qwen3-MoE experts: `Qwen3MoeExperts` already keeps them packed as 3-D parameters,
`gate_up_proj` [E, 2I, H] (gate rows first, then up rows) and `down_proj` [E, H, I], and its eager forward loops
over the experts that were hit, with one small matmul pair per expert. We keep those very Parameter objects (no copy;
state-dict names stay `mlp.experts.gate_up_proj` / `mlp.experts.down_proj`) and replace only the forward:

  1. flatten the (token, k) routing choices, sort them by expert (a stable argsort);
  2. count tokens per expert with a fixed-size `scatter_add_` over E (not `bincount`, which reads min/max back to the
     host, a device sync in every layer) and turn the counts into int32 end offsets;
  3. run ONE grouped mm per projection over all experts: gate_up, down, and for LoRA each projection's A then B;
  4. scale by the routing weight and `index_add_` the rows back to their tokens.

Grouped mm: `torch.nn.functional.grouped_mm` (or the older `torch._grouped_mm`) where it exists and accepts the
operands; the kernel needs 16-byte aligned strides, and on CUDA bf16 on sm80+. Anywhere else a correct fallback runs
one matmul per group; it needs the counts on the host (one sync), which is acceptable off the fast path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import torch
import torch.nn.functional as F
from torch import nn

from .lora_init import init_lora_a

ExpertsImpl = Literal["grouped", "loop"]

_NATIVE_GROUPED_MM: Callable[..., torch.Tensor] | None = getattr(F, "grouped_mm", None) or getattr(
    torch, "_grouped_mm", None
)


def native_grouped_mm_available() -> bool:
    """True when this torch build has a grouped mm at all (whether an operand is accepted is checked per call)."""
    return _NATIVE_GROUPED_MM is not None


def expert_token_counts(expert_ids: torch.Tensor, num_experts: int) -> torch.Tensor:
    """Tokens routed to each expert, shape [E], by a fixed-size scatter_add_ (no host-device sync, unlike bincount)."""
    flat = expert_ids.reshape(-1).long()
    counts = torch.zeros(num_experts, dtype=torch.int64, device=flat.device)
    return counts.scatter_add_(0, flat, torch.ones_like(flat))


@dataclass(frozen=True)
class Routing:
    """The (token, k) choices sorted by expert. M = tokens x top_k rows."""

    token_index: torch.Tensor  # [M] long: which token each sorted row came from
    weights: torch.Tensor  # [M]: that row's routing weight
    counts: torch.Tensor  # [E] int64: rows per expert
    offsets: torch.Tensor  # [E] int32: cumulative end offset of each expert's rows (the grouped-mm `offs`)


def sort_by_expert(top_k_index: torch.Tensor, top_k_weights: torch.Tensor, num_experts: int) -> Routing:
    # top_k_index, top_k_weights: [T, K]
    k = top_k_index.shape[-1]
    flat_experts = top_k_index.reshape(-1)  # [T*K]
    order = torch.argsort(flat_experts, stable=True)  # [M], rows grouped by expert
    counts = expert_token_counts(flat_experts, num_experts)
    return Routing(
        token_index=order // k,
        weights=top_k_weights.reshape(-1)[order],
        counts=counts,
        offsets=torch.cumsum(counts, 0).to(torch.int32),
    )


class _ContiguousGrad(torch.autograd.Function):
    """Identity whose backward makes the incoming gradient contiguous.

    The native grouped mm's backward rejects stride-0 (expanded) gradients such as the one `.sum().backward()`
    produces ("Invalid strides/sizes"), so its output passes through this before anything else sees it.
    """

    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:  # type: ignore[override]
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad: torch.Tensor) -> torch.Tensor:  # type: ignore[override]
        return grad.contiguous()


def _aligned(t: torch.Tensor) -> bool:
    size = t.element_size()
    return t.data_ptr() % 16 == 0 and all((s * size) % 16 == 0 for s, n in zip(t.stride(), t.shape) if s != 1 and n > 1)


def _native_accepts(x: torch.Tensor, w: torch.Tensor) -> bool:
    if _NATIVE_GROUPED_MM is None or x.dtype != w.dtype:
        return False
    if x.device.type == "cuda":
        if x.dtype != torch.bfloat16 or torch.cuda.get_device_capability(x.device) < (8, 0):
            return False
    elif x.device.type != "cpu":
        return False
    return _aligned(x) and _aligned(w) and (x.shape[-1] * x.element_size()) % 16 == 0 and (
        w.shape[-1] * w.element_size()
    ) % 16 == 0


def grouped_mm(x: torch.Tensor, w: torch.Tensor, routing: Routing, force_fallback: bool = False) -> torch.Tensor:
    """Rows of x grouped by expert, times that expert's matrix: out[rows of e] = x[rows of e] @ w[e].

    x: [M, K] sorted by expert; w: [E, K, N] (may be a transposed view). Returns [M, N].
    """
    if not force_fallback and _native_accepts(x, w):
        return _ContiguousGrad.apply(_NATIVE_GROUPED_MM(x, w, offs=routing.offsets))
    # Fallback: one matmul per expert. counts.tolist() is a host sync, fine off the fast path.
    pieces = torch.split(x, routing.counts.tolist(), dim=0)
    return torch.cat([piece @ w[e] for e, piece in enumerate(pieces)], dim=0)


def _lora_delta(
    x: torch.Tensor, a: torch.Tensor, b: torch.Tensor, scaling: float, routing: Routing, fallback: bool
) -> torch.Tensor:
    # x: [M, in]; a: [E, r, in]; b: [E, out, r] -> s * (x A_e^T) B_e^T, two grouped mms.
    low = grouped_mm(x, a.transpose(-2, -1), routing, fallback)  # [M, r]
    return scaling * grouped_mm(low, b.transpose(-2, -1), routing, fallback)  # [M, out]


def grouped_experts_forward(
    experts: MoeExperts, hidden: torch.Tensor, top_k_index: torch.Tensor, top_k_weights: torch.Tensor,
    force_fallback: bool = False,
) -> torch.Tensor:
    # hidden: [T, H]; top_k_*: [T, K]
    routing = sort_by_expert(top_k_index, top_k_weights, experts.num_experts)
    x = hidden[routing.token_index]  # [M, H], rows sorted by expert
    gate_up = grouped_mm(x, experts.gate_up_proj.transpose(-2, -1), routing, force_fallback)  # [M, 2I]
    gate, up = gate_up.chunk(2, dim=-1)  # [M, I] each
    lora = experts.lora if experts.lora is not None and experts.lora.enabled else None
    if lora is not None:
        gate = gate + _lora_delta(x, lora.gate_A, lora.gate_B, lora.scaling, routing, force_fallback)
        up = up + _lora_delta(x, lora.up_A, lora.up_B, lora.scaling, routing, force_fallback)
    h = experts.act_fn(gate) * up  # [M, I]
    y = grouped_mm(h, experts.down_proj.transpose(-2, -1), routing, force_fallback)  # [M, H]
    if lora is not None:
        y = y + _lora_delta(h, lora.down_A, lora.down_B, lora.scaling, routing, force_fallback)
    y = y * routing.weights.unsqueeze(-1).to(y.dtype)
    out = torch.zeros_like(hidden)
    return out.index_add_(0, routing.token_index, y.to(hidden.dtype))  # [T, H]


def looped_experts_forward(
    experts: MoeExperts, hidden: torch.Tensor, top_k_index: torch.Tensor, top_k_weights: torch.Tensor
) -> torch.Tensor:
    """The per-expert Python loop (transformers' eager shape), with the same LoRA math. The comparison baseline."""
    out = torch.zeros_like(hidden)
    lora = experts.lora if experts.lora is not None and experts.lora.enabled else None
    for e in range(experts.num_experts):
        token_idx, k_pos = torch.where(top_k_index == e)
        if token_idx.numel() == 0:
            continue
        x = hidden[token_idx]  # [n_e, H]
        gate, up = F.linear(x, experts.gate_up_proj[e]).chunk(2, dim=-1)
        if lora is not None:
            s = lora.scaling
            gate = gate + s * F.linear(F.linear(x, lora.gate_A[e]), lora.gate_B[e])
            up = up + s * F.linear(F.linear(x, lora.up_A[e]), lora.up_B[e])
        h = experts.act_fn(gate) * up
        y = F.linear(h, experts.down_proj[e])
        if lora is not None:
            y = y + lora.scaling * F.linear(F.linear(h, lora.down_A[e]), lora.down_B[e])
        y = y * top_k_weights[token_idx, k_pos, None].to(y.dtype)
        out.index_add_(0, token_idx, y.to(hidden.dtype))
    return out


class PackedExpertLora(nn.Module):
    """LoRA for all experts of one layer: one [E, r, in] A and one [E, out, r] B per projection. Here, not in lora.py,
    because the experts' forward reads it; lora.py puts one on every MoeExperts (`apply_lora`)."""

    def __init__(self, experts: MoeExperts, rank: int, alpha: float) -> None:
        super().__init__()
        e, h, i = experts.num_experts, experts.hidden_dim, experts.intermediate_dim
        dev, dt = experts.gate_up_proj.device, experts.gate_up_proj.dtype
        shapes = {"gate": (h, i), "up": (h, i), "down": (i, h)}  # projection -> (in, out)
        for proj, (fan_in, fan_out) in shapes.items():
            a = nn.Parameter(torch.empty(e, rank, fan_in, device=dev, dtype=dt))
            for k in range(e):
                init_lora_a(a.data[k])
            setattr(self, f"{proj}_A", a)
            setattr(self, f"{proj}_B", nn.Parameter(torch.zeros(e, fan_out, rank, device=dev, dtype=dt)))
        self.scaling = alpha / rank
        self.enabled = True


class MoeExperts(nn.Module):
    """Drop-in replacement for transformers' Qwen3MoeExperts: same parameters, grouped or looped forward, LoRA aware."""

    def __init__(self, base: nn.Module, impl: ExpertsImpl = "grouped") -> None:
        super().__init__()
        self.num_experts: int = base.num_experts
        self.hidden_dim: int = base.hidden_dim
        self.intermediate_dim: int = base.intermediate_dim
        self.gate_up_proj = base.gate_up_proj  # [E, 2I, H], the same Parameter object: no second copy of the base
        self.down_proj = base.down_proj  # [E, H, I]
        self.act_fn = base.act_fn
        self.lora: PackedExpertLora | None = None
        self.impl: ExpertsImpl = impl

    def forward(self, hidden: torch.Tensor, top_k_index: torch.Tensor, top_k_weights: torch.Tensor) -> torch.Tensor:
        if self.impl == "grouped":
            return grouped_experts_forward(self, hidden, top_k_index, top_k_weights)
        return looped_experts_forward(self, hidden, top_k_index, top_k_weights)


def _is_packed_experts(module: nn.Module) -> bool:
    # Qwen3MoeExperts (and other transformers 5 experts blocks of the same packed layout).
    return (
        not isinstance(module, MoeExperts)
        and isinstance(getattr(module, "gate_up_proj", None), nn.Parameter)
        and isinstance(getattr(module, "down_proj", None), nn.Parameter)
        and module.gate_up_proj.dim() == 3
    )


def install_experts(model: nn.Module, impl: ExpertsImpl = "grouped") -> list[str]:
    """Swap every packed experts block for MoeExperts; return the module names swapped. Idempotent for impl changes."""
    swapped: list[str] = []
    for name, module in list(model.named_modules()):
        if isinstance(module, MoeExperts):
            module.impl = impl
            swapped.append(name)
        elif _is_packed_experts(module):
            parent_name, _, child = name.rpartition(".")
            setattr(model.get_submodule(parent_name), child, MoeExperts(module, impl))
            swapped.append(name)
    return swapped


def set_experts_impl(model: nn.Module, impl: ExpertsImpl) -> None:
    for module in model.modules():
        if isinstance(module, MoeExperts):
            module.impl = impl
