"""LoRA adapters (Hu et al. 2021, arXiv:2106.09685): W' = W + (alpha / r) * B @ A, with W frozen.

Where they go:
- every attention projection (q/k/v/o) as `LoraLinear`, which keeps the base `weight`/`bias` Parameters under their
  original names (so the base state dict and FSDP see the same names) and adds `lora_A` [r, in] / `lora_B` [out, r];
- every expert's gate/up/down projection, packed across experts into ONE tensor per layer x projection x A/B
  (`experts.PackedExpertLora.gate_A` [E, r, H], `gate_B` [E, I, r], ... ) because the grouped kernels index experts
  along dim 0.

PEFT format, both ways. vLLM's `POST /v1/load_lora_adapter` reads a PEFT directory: `adapter_config.json` and
`adapter_model.safetensors` with keys `base_model.model.<module>.lora_A.weight` / `.lora_B.weight`. Hub Qwen3-MoE
checkpoints (and vLLM's expert-LoRA mapping) name experts per expert as `mlp.experts.<e>.{gate,up,down}_proj`, so the
packed tensors are split into per-expert keys on export and stacked back on import. Gate and up keep separate A
matrices (not one A on the fused gate_up weight) precisely so that this per-expert PEFT form is exact.

The KL reference shares the frozen base, never a second copy of it: the base with adapters disabled
(`adapters_disabled`), or, for a run that starts from an adapter (RL from SFT), a frozen copy of that adapter's weights
swapped in for the reference forward (`read_reference_weights`, `adapter_weights_swapped`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import torch
import torch.nn.functional as F
from safetensors.torch import load_file, save_file
from torch import nn

from .config import LoraConfig
from .experts import ExpertsImpl, MoeExperts, PackedExpertLora, install_experts
from .lora_init import init_lora_a

PEFT_PREFIX = "base_model.model."
EXPERT_PROJECTIONS = ("gate", "up", "down")
ADAPTER_WEIGHTS = "adapter_model.safetensors"
ADAPTER_CONFIG = "adapter_config.json"


class LoraLinear(nn.Module):
    """A frozen linear layer plus a low-rank update. Parameter names: weight, bias (base), lora_A, lora_B."""

    def __init__(self, base: nn.Linear, rank: int, alpha: float) -> None:
        super().__init__()
        self.in_features, self.out_features = base.in_features, base.out_features
        self.weight = base.weight  # the same Parameter object
        self.bias = base.bias
        self.weight.requires_grad_(False)
        if self.bias is not None:
            self.bias.requires_grad_(False)
        dev, dt = base.weight.device, base.weight.dtype
        self.lora_A = nn.Parameter(torch.empty(rank, self.in_features, device=dev, dtype=dt))
        self.lora_B = nn.Parameter(torch.zeros(self.out_features, rank, device=dev, dtype=dt))
        init_lora_a(self.lora_A)
        self.scaling = alpha / rank
        self.enabled = True

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.linear(x, self.weight, self.bias)
        if self.enabled:
            y = y + self.scaling * F.linear(F.linear(x, self.lora_A), self.lora_B)
        return y


def apply_lora(model: nn.Module, cfg: LoraConfig, experts_impl: ExpertsImpl = "grouped") -> list[str]:
    """Freeze the base, add adapters in place, return the adapted module names. Seeded, so every rank agrees."""
    for p in model.parameters():
        p.requires_grad_(False)
    install_experts(model, experts_impl)
    targets = set(cfg.attention_targets) | set(cfg.dense_mlp_targets)
    gen_state = torch.random.get_rng_state()
    torch.manual_seed(cfg.seed)
    adapted: list[str] = []
    try:
        for name, module in list(model.named_modules()):
            leaf = name.rpartition(".")[2]
            parent = model.get_submodule(name.rpartition(".")[0]) if "." in name else model
            if isinstance(module, nn.Linear) and leaf in targets and not isinstance(parent, MoeExperts):
                setattr(parent, leaf, LoraLinear(module, cfg.rank, cfg.alpha))
                adapted.append(name)
            elif isinstance(module, MoeExperts) and cfg.experts:
                module.lora = PackedExpertLora(module, cfg.rank, cfg.alpha)
                adapted.append(name)
    finally:
        torch.random.set_rng_state(gen_state)
    if not adapted:
        raise ValueError(f"no module matched the LoRA targets {sorted(targets)} (experts={cfg.experts})")
    return adapted


def lora_parameters(model: nn.Module) -> dict[str, nn.Parameter]:
    """The trainable adapter parameters by name, in a fixed order (every rank flattens them identically)."""
    return {n: p for n, p in model.named_parameters() if n.rpartition(".")[2] in _ADAPTER_PARAM_NAMES}


_ADAPTER_PARAM_NAMES = {"lora_A", "lora_B"} | {f"{p}_{m}" for p in EXPERT_PROJECTIONS for m in "AB"}


def _adapter_modules(model: nn.Module) -> Iterator[LoraLinear | PackedExpertLora]:
    for m in model.modules():
        if isinstance(m, (LoraLinear, PackedExpertLora)):
            yield m


@contextmanager
def adapters_disabled(model: nn.Module) -> Iterator[None]:
    """The reference policy: the very same base weights with every adapter switched off."""
    mods = list(_adapter_modules(model))
    previous = [m.enabled for m in mods]
    for m in mods:
        m.enabled = False
    try:
        yield
    finally:
        for m, was in zip(mods, previous):
            m.enabled = was


@contextmanager
def adapter_weights_swapped(params: list[nn.Parameter], weights: list[torch.Tensor]) -> Iterator[None]:
    """Run the model with `weights` in place of the trainable adapter `params` (same order and shapes), e.g. the frozen
    init adapter as the KL reference. Only for no-grad forwards. The storage is swapped (`.data`), not copied, so no
    version counter moves and a backward later through an earlier forward still sees the trained weights, which are
    back in place by then."""
    if len(params) != len(weights):
        raise ValueError(f"{len(weights)} reference tensors for {len(params)} adapter parameters")
    saved = [p.data for p in params]
    try:
        for p, w in zip(params, weights):
            p.data = w
        yield
    finally:
        for p, d in zip(params, saved):
            p.data = d


@torch.no_grad()
def read_reference_weights(model: nn.Module, directory: Path) -> list[torch.Tensor]:
    """A frozen copy of a PEFT folder's adapter weights, in `lora_parameters(model)` order. The folder is loaded into
    the model's own adapters (so its keys and shapes are checked like any load) and the current weights put back."""
    params = list(lora_parameters(model).values())
    current = [p.detach().clone() for p in params]
    try:
        load_peft_state_dict(model, load_file(str(directory / ADAPTER_WEIGHTS)))
        return [p.detach().clone() for p in params]
    finally:
        for p, c in zip(params, current):
            p.copy_(c)


def check_adapter_config(directory: Path, cfg: LoraConfig, base_model_name: str) -> None:
    """Refuse an adapter trained for another base model or with another rank/alpha, naming what differs: its weights
    would not fit (another rank), or would mean something else (another base)."""
    path = directory / ADAPTER_CONFIG
    if not (directory / ADAPTER_WEIGHTS).is_file() or not path.is_file():
        raise FileNotFoundError(f"{directory} is not a PEFT adapter folder (no {ADAPTER_WEIGHTS} or {ADAPTER_CONFIG})")
    found = json.loads(path.read_text())
    wanted = {"base_model_name_or_path": base_model_name, "r": cfg.rank, "lora_alpha": cfg.alpha}
    bad = [f"{k} {found.get(k)!r} (this learner: {v!r})" for k, v in wanted.items() if found.get(k) != v]
    if bad:
        raise ValueError(f"adapter {directory} does not fit this learner: {', '.join(bad)}")


# --- PEFT conversion -------------------------------------------------------------------------------------------------


def _clean(name: str) -> str:
    # FSDP1 with use_orig_params inserts these into module names; PEFT keys must not carry them.
    return name.replace("_fsdp_wrapped_module.", "").replace("_checkpoint_wrapped_module.", "")


def to_peft_state_dict(model: nn.Module) -> dict[str, torch.Tensor]:
    """Adapter tensors under PEFT keys; packed expert tensors are split into per-expert keys."""
    out: dict[str, torch.Tensor] = {}
    for name, module in model.named_modules():
        name = _clean(name)
        if isinstance(module, LoraLinear):
            out[f"{PEFT_PREFIX}{name}.lora_A.weight"] = module.lora_A.detach().clone()
            out[f"{PEFT_PREFIX}{name}.lora_B.weight"] = module.lora_B.detach().clone()
        elif isinstance(module, PackedExpertLora):
            experts_name = name.rpartition(".")[0]  # "...mlp.experts"
            for proj in EXPERT_PROJECTIONS:
                a, b = getattr(module, f"{proj}_A").detach(), getattr(module, f"{proj}_B").detach()
                for e in range(a.shape[0]):
                    key = f"{PEFT_PREFIX}{experts_name}.{e}.{proj}_proj"
                    out[f"{key}.lora_A.weight"] = a[e].clone()  # [r, in]
                    out[f"{key}.lora_B.weight"] = b[e].clone()  # [out, r]
    return out


@torch.no_grad()
def load_peft_state_dict(model: nn.Module, state: dict[str, torch.Tensor]) -> None:
    """Inverse of to_peft_state_dict. Every adapter must be present and no key may be left over."""
    remaining = dict(state)

    def take(key: str, like: torch.Tensor) -> torch.Tensor:
        if key not in remaining:
            raise KeyError(f"adapter is missing {key}")
        t = remaining.pop(key)
        if t.shape != like.shape:
            raise ValueError(f"{key}: shape {tuple(t.shape)} does not match the model's {tuple(like.shape)}")
        return t.to(device=like.device, dtype=like.dtype)

    for name, module in model.named_modules():
        name = _clean(name)
        if isinstance(module, LoraLinear):
            module.lora_A.copy_(take(f"{PEFT_PREFIX}{name}.lora_A.weight", module.lora_A))
            module.lora_B.copy_(take(f"{PEFT_PREFIX}{name}.lora_B.weight", module.lora_B))
        elif isinstance(module, PackedExpertLora):
            experts_name = name.rpartition(".")[0]
            for proj in EXPERT_PROJECTIONS:
                for mat in "AB":
                    packed = getattr(module, f"{proj}_{mat}")
                    for e in range(packed.shape[0]):
                        packed[e].copy_(take(f"{PEFT_PREFIX}{experts_name}.{e}.{proj}_proj.lora_{mat}.weight", packed[e]))
    if remaining:
        raise ValueError(f"adapter has {len(remaining)} keys the model has no place for, e.g. {sorted(remaining)[:3]}")


def adapted_module_names(state: dict[str, torch.Tensor]) -> list[str]:
    """The leaf module names an adapter state dict adapts (`q_proj`, ..., `gate_proj` of each expert): what PEFT and
    vLLM match `target_modules` against. Read from the tensors written, so a dense model's adapter never claims the
    expert projections it does not have."""
    return sorted({k.removesuffix(".lora_A.weight").rpartition(".")[2] for k in state if k.endswith(".lora_A.weight")})


def peft_adapter_config(cfg: LoraConfig, base_model_name: str, targets: list[str] | None = None) -> dict[str, object]:
    if targets is None:
        targets = list(cfg.attention_targets) + list(cfg.dense_mlp_targets)
        if cfg.experts:
            targets += ["gate_proj", "up_proj", "down_proj"]
    return {
        "peft_type": "LORA",
        "task_type": "CAUSAL_LM",
        "base_model_name_or_path": base_model_name,
        "r": cfg.rank,
        "lora_alpha": cfg.alpha,
        "lora_dropout": 0.0,
        "bias": "none",
        "target_modules": sorted(set(targets)),
        "use_rslora": False,
        "use_dora": False,
        "fan_in_fan_out": False,
        "inference_mode": True,
    }


def save_adapter(model: nn.Module, directory: Path, version: int, cfg: LoraConfig, base_model_name: str) -> Path:
    """Write a PEFT directory; the policy version goes into the safetensors metadata (and the config, for people)."""
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {k: v.contiguous().cpu() for k, v in to_peft_state_dict(model).items()}
    save_file(tensors, str(directory / ADAPTER_WEIGHTS), metadata={"format": "pt", "policy_version": str(version)})
    config = peft_adapter_config(cfg, base_model_name, adapted_module_names(tensors)) | {"revision": f"policy-v{version}"}
    (directory / ADAPTER_CONFIG).write_text(json.dumps(config, indent=2) + "\n")
    return directory


def read_adapter_version(directory: Path) -> int:
    from safetensors import safe_open

    with safe_open(str(directory / ADAPTER_WEIGHTS), framework="pt") as f:
        meta = f.metadata() or {}
    if "policy_version" not in meta:
        raise ValueError(f"{directory / ADAPTER_WEIGHTS} carries no policy_version in its metadata")
    return int(meta["policy_version"])


def load_adapter(model: nn.Module, directory: Path) -> int:
    """Load a PEFT directory into the model's adapters; return its policy version."""
    load_adapter_weights(model, directory)
    return read_adapter_version(directory)


def load_adapter_weights(model: nn.Module, directory: Path) -> None:
    """Load a PEFT directory's weights only (a run's init adapter: its recorded version is another run's)."""
    load_peft_state_dict(model, load_file(str(directory / ADAPTER_WEIGHTS)))
