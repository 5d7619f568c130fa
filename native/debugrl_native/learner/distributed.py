"""FSDP1 that shards only the frozen base; LoRA replicated on every rank, its gradients all-reduced once.

Why this layout (the seed's): wrapping each decoder layer in one FSDP unit flattens frozen and trainable tensors
together, and FSDP then reduce-scatters gradients for the whole flat tensor (30.1 billion elements per pass in the
seed, for 104 million trainable). So the adapters are `ignored_states`: FSDP flattens and shards only frozen base
weights (no gradient reduction at all), while the adapters stay plain replicated tensors (0.19 GiB in bf16 for the
30B model). After backward, one all-reduce over a single flat buffer of all adapter gradients, then clipping.

FSDP1 (not FSDP2) with `use_orig_params=True`: the grouped expert kernels and the adapter export read parameters
directly, and use_orig_params keeps plain tensor views under the original names.

gloo on CPU (tests: two ranks under torchrun or torch.multiprocessing), NCCL on GPU.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch
import torch.distributed as dist
from torch import nn


@dataclass(frozen=True)
class DistContext:
    rank: int = 0
    world_size: int = 1
    device: torch.device = torch.device("cpu")

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    @property
    def distributed(self) -> bool:
        return self.world_size > 1


def init_distributed() -> DistContext:
    """Join the process group torchrun describes in the environment, or run alone when it describes none."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world == 1:
        device = torch.device("cuda", 0) if torch.cuda.is_available() else torch.device("cpu")
        return DistContext(0, 1, device)
    rank = int(os.environ["RANK"])
    if torch.cuda.is_available():
        local = int(os.environ.get("LOCAL_RANK", "0"))
        torch.cuda.set_device(local)
        device, backend = torch.device("cuda", local), "nccl"
    else:
        device, backend = torch.device("cpu"), "gloo"
    if not dist.is_initialized():
        dist.init_process_group(backend=backend, rank=rank, world_size=world)
    return DistContext(rank, world, device)


def shard_frozen_base(model: nn.Module, ctx: DistContext, adapter_params: list[nn.Parameter]) -> nn.Module:
    """Wrap each decoder layer (and the root) in FSDP1; adapters are ignored, so only frozen weights are sharded."""
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    from torch.distributed.fsdp import ShardingStrategy
    from torch.distributed.fsdp.wrap import ModuleWrapPolicy

    layer_classes = {type(m) for m in model.modules() if type(m).__name__.endswith("DecoderLayer")}
    if not layer_classes:
        raise ValueError("no *DecoderLayer modules found to wrap")
    return FSDP(
        model,
        auto_wrap_policy=ModuleWrapPolicy(layer_classes),
        sharding_strategy=ShardingStrategy.FULL_SHARD,
        ignored_states=adapter_params,
        use_orig_params=True,
        device_id=ctx.device,
        # Every rank builds or reads the same weights; on GPU broadcast rank 0's anyway (cheap insurance). FSDP1
        # refuses sync_module_states for CPU modules, so on CPU it rests on the identical seeded construction.
        sync_module_states=ctx.device.type == "cuda",
        limit_all_gathers=True,
    )


def broadcast_adapters(params: list[nn.Parameter], ctx: DistContext) -> None:
    """Start every rank from rank 0's adapters (they are replicated, and must stay identical)."""
    if not ctx.distributed:
        return
    with torch.no_grad():
        flat = torch.cat([p.detach().reshape(-1) for p in params])
        dist.broadcast(flat, src=0)
        _unflatten_into(flat, params, grads=False)


def allreduce_adapter_grads(params: list[nn.Parameter], ctx: DistContext) -> None:
    """ONE all-reduce (SUM) over the flattened adapter gradients.

    SUM, not AVG: every rank's loss already carries the global coefficients 1 / (#groups * |group|) (loss.py), so
    the full-batch gradient is the sum of the ranks' partial gradients. A parameter with no gradient on this rank
    (its experts were never routed to) contributes zeros so that every rank's buffer has the same layout.
    """
    if not ctx.distributed:
        return
    flat = torch.cat([(p.grad if p.grad is not None else torch.zeros_like(p)).reshape(-1) for p in params])
    dist.all_reduce(flat, op=dist.ReduceOp.SUM)
    _unflatten_into(flat, params, grads=True)


def _unflatten_into(flat: torch.Tensor, params: list[nn.Parameter], grads: bool) -> None:
    offset = 0
    for p in params:
        n = p.numel()
        piece = flat[offset:offset + n].view_as(p)
        if grads:
            p.grad = piece.clone()
        else:
            p.data.copy_(piece)
        offset += n


def all_reduce_scalars(values: list[float], ctx: DistContext, op: str = "sum") -> list[float]:
    """Sum (or max / min) a few metric scalars over ranks in one collective."""
    if not ctx.distributed:
        return values
    t = torch.tensor(values, dtype=torch.float64)
    reduce_op = {"sum": dist.ReduceOp.SUM, "max": dist.ReduceOp.MAX, "min": dist.ReduceOp.MIN}[op]
    if dist.get_backend() == "nccl":
        t = t.to(ctx.device)
    dist.all_reduce(t, op=reduce_op)
    return t.cpu().tolist()
