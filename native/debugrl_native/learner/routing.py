"""Rollout routing replay (R3): MoE layers route each token to the experts the inference server chose for it.

Why: the server and the learner compute the router's top-k independently, and kernel or precision differences flip
near-tied choices; a flipped expert changes the token's logprob by far more than the rounding that caused it, and the
flips compound over layers. Replaying the server's choice removes that source of train/serve mismatch.

What is replayed (the choice Megatron-LM's `RouterReplay`, NeMo-RL/Automodel and ROLL make): only the discrete
selection. The weights are the LIVE router's softmax over all experts, gathered at the replayed experts and
renormalised over them when the model renormalises (Qwen3-MoE's `norm_topk_prob`), exactly as transformers'
`Qwen3MoeTopKRouter` computes them for its own top-k. So replaying the experts the router would pick anyway is bit for
bit today's forward, and the weights still carry gradient.

How: a forward hook on every `Qwen3MoeTopKRouter` (the model and its state dict are untouched) rewrites the router's
(logits, weights, experts) output. The routes of the microbatch stay loaded until the next `load`, because the
backward of a gradient-checkpointed layer recomputes its forward and must route it the same way.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from transformers.models.qwen3_moe.modeling_qwen3_moe import Qwen3MoeTopKRouter

from .protocol import RoutedExperts, Step

NOT_ROUTED = -1  # a token the server reported no route for: its layer's own router chooses


@dataclass(frozen=True)
class RoutingShape:
    """What the model's routes look like: MoE layers, experts per token, experts per layer."""

    layers: int
    top_k: int
    num_experts: int


def decode_routes(packed: str, layers: int, top_k: int) -> torch.Tensor:
    """A RoutedExperts base64 field as a [T, layers, top_k] int16 tensor."""
    ids = np.frombuffer(base64.b64decode(packed), dtype="<i2").astype(np.int16)
    return torch.from_numpy(ids.reshape(-1, layers, top_k))


def encode_routes(routes: torch.Tensor) -> str:
    """[T, layers, top_k] expert ids as a RoutedExperts base64 field (what a server sends; tests use it too)."""
    return base64.b64encode(routes.to(torch.int16).numpy().astype("<i2").tobytes()).decode("ascii")


def check_routes(routes: torch.Tensor, shape: RoutingShape) -> None:
    """Refuse routes this model cannot replay, naming the first offending token: ids outside [0, E), an expert named
    twice for one token in one layer (top-k never does that). Rows of NOT_ROUTED are skipped."""
    reported = (routes != NOT_ROUTED).flatten(1).any(-1)
    ids = routes[reported].long()
    bad = (ids < 0) | (ids >= shape.num_experts)
    if bad.any():
        t, layer, _ = bad.nonzero()[0].tolist()
        raise ValueError(f"expert id {int(ids[t, layer][bad[t, layer]][0])} (routed token {t}, MoE layer {layer}) is "
                         f"outside the model's {shape.num_experts} experts")
    ordered = ids.sort(-1).values
    twice = (ordered[..., 1:] == ordered[..., :-1]).any(-1)
    if twice.any():
        t, layer = twice.nonzero()[0].tolist()
        raise ValueError(f"routed token {t}, MoE layer {layer} names expert {ids[t, layer].tolist()} twice")


def step_routes(step: Step, shape: RoutingShape) -> torch.Tensor | None:
    """[P + C, L, k] int16: the expert ids of a step's prompt and completion tokens, NOT_ROUTED where the server sent
    none (an unreported prompt, the unforwarded last sampled token). None: the step has no routes."""
    r: RoutedExperts | None = step.routed_experts
    if r is None:
        return None
    if r.layers != shape.layers:
        raise ValueError(f"routed experts name {r.layers} MoE layers but the model has {shape.layers}")
    if r.top_k != shape.top_k:
        raise ValueError(f"routed experts name {r.top_k} experts per token but the model routes to {shape.top_k}")
    n_prompt, n_completion = len(step.prompt_ids), len(step.completion_ids)
    unrouted = lambda n: torch.full((n, r.layers, r.top_k), NOT_ROUTED, dtype=torch.int16)  # noqa: E731
    prompt = decode_routes(r.prompt, r.layers, r.top_k) if r.prompt is not None else unrouted(n_prompt)
    completion = decode_routes(r.completion, r.layers, r.top_k)
    routes = torch.cat([prompt, completion, unrouted(n_completion - completion.shape[0])])
    check_routes(routes, shape)
    return routes


def replayed_weights(logits: torch.Tensor, experts: torch.Tensor, normalize: bool) -> torch.Tensor:
    """Routing weights at the given experts, computed as Qwen3MoeTopKRouter computes them at its own top-k: float
    softmax over all experts, gathered, renormalised over the k when the model does, cast to the logits' dtype."""
    probs = torch.nn.functional.softmax(logits, dtype=torch.float, dim=-1)
    weights = probs.gather(-1, experts)
    if normalize:
        weights /= weights.sum(dim=-1, keepdim=True)
    return weights.to(logits.dtype)


def moe_routers(model: nn.Module) -> list[Qwen3MoeTopKRouter]:
    """The model's MoE routers in layer order (the order a server reports layers in)."""
    return [m for m in model.modules() if isinstance(m, Qwen3MoeTopKRouter)]


class RouteReplay:
    """Replays loaded routes through every router of a model, or records what the routers choose."""

    def __init__(self, model: nn.Module) -> None:
        routers = moe_routers(model)
        if not routers:
            raise ValueError("routing_replay needs an MoE model with Qwen3-MoE routers; this model has none")
        self.shape = RoutingShape(layers=len(routers), top_k=int(routers[0].top_k),
                                  num_experts=int(routers[0].num_experts))
        self._routes: torch.Tensor | None = None  # [S, L, k] long on the model's device
        self._recorded: list[list[torch.Tensor]] | None = None
        self._handles = [r.register_forward_hook(self._hook(layer)) for layer, r in enumerate(routers)]

    def load(self, routes: torch.Tensor | None, device: torch.device | str = "cpu") -> None:
        """Route the next forwards (and the recomputing backward) by `routes` [S, L, k]; None: the routers' own."""
        self._routes = routes.to(device=device, dtype=torch.long) if routes is not None else None

    @contextmanager
    def recording(self) -> Iterator[list[torch.Tensor]]:
        """Collect the experts the routers choose (after any replay): on exit the list holds one [S, L, k] tensor per
        forward made inside the block. Record without grad: a checkpointed backward would record its recomputation."""
        out: list[torch.Tensor] = []
        self._recorded = [[] for _ in self._handles]
        try:
            yield out
        finally:
            recorded, self._recorded = self._recorded, None
            out.extend(torch.stack(calls, dim=1) for calls in zip(*recorded))

    def remove(self) -> None:
        for h in self._handles:
            h.remove()

    def _hook(self, layer: int):
        def hook(router: nn.Module, args: tuple, output: tuple[torch.Tensor, torch.Tensor, torch.Tensor]):
            logits, weights, experts = output  # [T, E], [T, k], [T, k]
            routes = self._routes
            if routes is not None:
                if routes.shape[0] != experts.shape[0]:
                    raise RuntimeError(f"the loaded routes cover {routes.shape[0]} tokens but MoE layer {layer} "
                                       f"routes {experts.shape[0]}: routes of another microbatch")
                wanted = routes[:, layer, :]
                experts = torch.where(wanted != NOT_ROUTED, wanted, experts)
                weights = replayed_weights(logits, experts, bool(router.norm_topk_prob))
            if self._recorded is not None:
                self._recorded[layer].append(experts.detach().cpu())
            return (logits, weights, experts) if routes is not None else None
        return hook
