"""Rollout routing replay (R3) on the tiny Qwen3-MoE: the learner routes each token to the experts the rollout chose.

The "rollout" is the learner's own forward of the trajectory's packed chain with the routers recorded (what a server
with routed-expert capture returns), at lag 0. Then the router of layer 0 is perturbed so that it picks other experts
for some tokens, as a server whose kernels round differently would: with replay the learner's logprobs stay the
rollout's, without it they move.
"""

import pytest
import torch
from pydantic import ValidationError

from debugrl_native.learner.config import LearnerConfig, LoraConfig, LossConfig, OptimConfig
from debugrl_native.learner.packing import assemble
from debugrl_native.learner.protocol import RoutedExperts, Step, TrainBatch
from debugrl_native.learner.routing import encode_routes, moe_routers
from debugrl_native.learner.synthetic import synthetic_batch
from debugrl_native.learner.train import InvalidBatch, Learner, prepare_batch


def _learner(tmp_path, replay: bool, name: str = "l", checkpointing: bool | None = None) -> Learner:
    return Learner(LearnerConfig(lora=LoraConfig(rank=4, alpha=8.0), optim=OptimConfig(lr=1e-2),
                                 loss=LossConfig(max_policy_lag=100, kl_coef=0.0, bc_coef=0.0),
                                 routing_replay=replay, gradient_checkpointing=checkpointing,
                                 output_dir=tmp_path / name))


def _batch(learner: Learner, group_size: int = 1, seed: int = 7) -> TrainBatch:
    # two turns per trajectory: one chain, whose second step's prompt extends the first step's tokens
    return synthetic_batch(learner.vocab_size, groups=1, group_size=group_size, turns=2, prompt_len=10,
                           completion_len=(8, 12), seed=seed)


def _microbatches(learner: Learner, batch: TrainBatch) -> list:
    """One microbatch per trajectory (its chain), as the learner's step builds it."""
    shape = learner.replay.shape if learner.replay is not None else None
    prep = prepare_batch(batch, learner.cfg, learner.version, learner.vocab_size, routing=shape)
    return [assemble(item.sequences) for item in prep.items]


@torch.no_grad()
def _logprobs(learner: Learner, batch: TrainBatch) -> list[torch.Tensor]:
    return [learner.token_logprobs(mb) for mb in _microbatches(learner, batch)]


@torch.no_grad()
def _rollout(learner: Learner, batch: TrainBatch, hidden: list | None = None) -> tuple[TrainBatch, list[torch.Tensor]]:
    """The batch as a server with routed-expert capture returns it: each step's logprobs and routes from the forward
    of its chain (the routers' own choices). The last sampled token of every step has no route, as from a server."""
    replay = learner.replay
    assert replay is not None
    grab = moe_routers(learner.model)[0].register_forward_pre_hook(lambda m, a: hidden.append(a[0].detach())) \
        if hidden is not None else None
    groups, served = [], []
    for group in batch.groups:
        trajectories = []
        for traj, mb in zip(group.trajectories, _microbatches(learner, TrainBatch(groups=[group]))):
            with replay.recording() as recorded:
                logp = learner.token_logprobs(mb)
            routes = recorded[0]
            served.append(logp)
            steps, done = [], 0
            for s in traj.steps:
                p, c = len(s.prompt_ids), len(s.completion_ids)
                lp = [min(0.0, x) for x in logp[done:done + c].tolist()]
                done += c
                steps.append(s.model_copy(update={"completion_logprobs": lp, "routed_experts": RoutedExperts(
                    layers=routes.shape[1], top_k=routes.shape[2], prompt=encode_routes(routes[:p]),
                    completion=encode_routes(routes[p:p + c - 1]))}))
            trajectories.append(traj.model_copy(update={"steps": steps}))
        groups.append(group.model_copy(update={"trajectories": trajectories}))
    if grab is not None:
        grab.remove()
    # validated as the learner's request would be (model_copy skips the validators)
    return TrainBatch.model_validate(batch.model_copy(update={"groups": groups}).model_dump()), served


@torch.no_grad()
def _perturb_router(learner: Learner, hidden: torch.Tensor, routes: torch.Tensor) -> None:
    """Move layer 0's router row of one expert along a direction orthogonal to the hidden states of the tokens routed
    to it, far enough that it wins a top-k place at other tokens. The renormalised weights of the experts a token was
    routed to depend only on those experts' logits, which this leaves unchanged up to rounding, so replayed routing
    must give the rollout's logprobs back, up to rounding; recomputed routing changes them."""
    router = moe_routers(learner.model)[0]
    expert = 0
    chosen = (routes[:, 0, :] == expert).any(-1)  # [S]
    h = hidden.double()
    basis = torch.linalg.qr(h[chosen].T).Q  # [H, n]: the span of the chosen tokens' hidden states
    d = torch.randn(h.shape[1], generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    d -= basis @ (basis.T @ d)
    logits = h @ router.weight.double().T  # [S, E]
    kth = logits.topk(router.top_k, dim=-1).values[:, -1]
    gap, push = kth - logits[:, expert], h @ d
    d, push = (d, push) if push[~chosen].max() > 0 else (-d, -push)
    candidates = (~chosen) & (push > 0)
    alpha = 1.01 * float((gap[candidates] / push[candidates]).quantile(0.5))  # about half of them flip
    router.weight[expert] += (alpha * d).to(router.weight.dtype)


def test_replaying_the_routers_own_choice_is_todays_forward_bit_for_bit(tmp_path):
    learner = _learner(tmp_path, replay=True)
    plain = _batch(learner)
    routed, served = _rollout(learner, plain)
    assert routed.groups[0].trajectories[0].steps[0].routed_experts is not None
    replayed = _logprobs(learner, routed)
    assert all(torch.equal(a, b) for a, b in zip(replayed, served))  # lag 0: exactly the rollout's logprobs


def test_with_a_drifted_router_replay_keeps_the_rollout_logprobs_and_recomputed_routing_does_not(tmp_path):
    learner = _learner(tmp_path, replay=True)
    hidden: list[torch.Tensor] = []
    routed, served = _rollout(learner, _batch(learner), hidden)
    rollout_routes = _recorded_routes(learner, _batch(learner))
    _perturb_router(learner, hidden[0], rollout_routes)
    # the perturbation must change the routing the learner would compute (else this test could not fail)
    drifted = _recorded_routes(learner, _batch(learner))
    flipped = (drifted[:, 0] != rollout_routes[:, 0]).any(-1)
    assert int(flipped.sum()) >= 1
    off = _logprobs(learner, _batch(learner))[0]  # no routes: the routers choose
    on = _logprobs(learner, routed)[0]
    off_gap = float((off - served[0]).abs().max())
    on_gap = float((on - served[0]).abs().max())
    assert off_gap > 1e-3
    # Not bitwise: the drifted router's softmax has another denominator, so the same renormalised weights round
    # differently in float32. Measured: 4.8e-7 with replay, 1.4e-2 without (5 of 32 tokens routed elsewhere).
    assert on_gap <= 2e-6 and on_gap < off_gap / 1000


@torch.no_grad()
def _recorded_routes(learner: Learner, batch: TrainBatch) -> torch.Tensor:
    assert learner.replay is not None
    with learner.replay.recording() as recorded:
        _logprobs(learner, batch)
    return recorded[0]


def test_the_checkpointed_backward_routes_as_the_forward_did(tmp_path):
    """A train step with replayed routes gives the same update whether or not gradient checkpointing recomputes the
    layers in backward (it must see the same routes then), and a different one from recomputed routing."""
    updates = {}
    for name, replay, checkpointing in (("ckpt", True, True), ("plain", True, False), ("off", False, False)):
        learner = _learner(tmp_path, replay=True, name=name, checkpointing=checkpointing)
        hidden: list[torch.Tensor] = []
        batch, _ = _rollout(learner, _batch(learner, group_size=2, seed=3), hidden)
        _perturb_router(learner, hidden[0], _recorded_routes(learner, _batch(learner, group_size=2, seed=3)))
        learner.train_step(batch if replay else _without_routes(batch))
        updates[name] = torch.cat([p.detach().flatten() for p in learner.adapter_params])
    torch.testing.assert_close(updates["ckpt"], updates["plain"], rtol=1e-5, atol=1e-7)
    assert float((updates["ckpt"] - updates["off"]).abs().max()) > 1e-4


def _without_routes(batch: TrainBatch) -> TrainBatch:
    return batch.model_copy(update={"groups": [g.model_copy(update={"trajectories": [t.model_copy(update={
        "steps": [s.model_copy(update={"routed_experts": None}) for s in t.steps]}) for t in g.trajectories]})
        for g in batch.groups]})


def test_routes_that_do_not_fit_the_step_or_the_model_are_refused_by_name(tmp_path):
    learner = _learner(tmp_path, replay=True)
    routed, _ = _rollout(learner, _batch(learner))
    step = routed.groups[0].trajectories[0].steps[0]
    p, c = len(step.prompt_ids), len(step.completion_ids)

    def rebuilt(ids: torch.Tensor, **fields) -> Step:  # a step with these routes for its prompt, validated again
        return Step.model_validate(step.model_dump() | {"routed_experts": {
            "layers": ids.shape[1], "top_k": ids.shape[2], "prompt": encode_routes(ids),
            "completion": encode_routes(torch.zeros(c, ids.shape[1], ids.shape[2], dtype=torch.long) + torch.arange(
                ids.shape[2])), **fields}})

    def refused(bad: Step, match: str) -> None:
        traj = routed.groups[0].trajectories[0]
        batch = TrainBatch(groups=[routed.groups[0].model_copy(update={"trajectories": [
            traj.model_copy(update={"steps": [bad, *traj.steps[1:]]})]})])
        with pytest.raises(InvalidBatch, match=match):
            learner.train_step(batch)

    good = torch.arange(2).repeat(p, 2, 1)  # [P, 2 layers, top 2]
    # token count: one prompt token short, or two completion tokens short (only the last may be missing)
    with pytest.raises(ValidationError, match=f"cover {p - 1} prompt tokens but the step has {p}"):
        rebuilt(good[1:])
    with pytest.raises(ValidationError, match=f"cover {c - 2} completion tokens but the step has {c}"):
        rebuilt(good, completion=encode_routes(torch.zeros(c - 2, 2, 2)))
    with pytest.raises(ValidationError, match="not valid base64"):
        rebuilt(good, completion="not base64!")
    # the model: layer count, experts per token, ids out of range, an expert twice
    refused(rebuilt(torch.arange(2).repeat(p, 3, 1)), "step 0: routed experts name 3 MoE layers but the model has 2")
    refused(rebuilt(torch.arange(3).repeat(p, 2, 1)), "name 3 experts per token but the model routes to 2")
    out_of_range = good.clone()
    out_of_range[4, 1, 0] = 8
    refused(rebuilt(out_of_range), r"expert id 8 \(routed token 4, MoE layer 1\) is outside the model's 8 experts")
    twice = good.clone()
    twice[2, 0] = 5
    refused(rebuilt(twice), r"routed token 2, MoE layer 0 names expert \[5, 5\] twice")


def test_with_replay_off_routes_are_ignored_and_the_step_is_todays(tmp_path):
    off = _learner(tmp_path, replay=False, name="off")
    recorder = _learner(tmp_path, replay=True, name="rec")  # same seed, same weights: only to record routes
    routed, _ = _rollout(recorder, _batch(recorder, group_size=2, seed=5))
    plain = _without_routes(routed)
    assert all(mb.routes is None for mb in _microbatches(off, routed))
    today = _learner(tmp_path, replay=False, name="today")
    m_off, m_today = off.train_step(routed), today.train_step(plain)
    assert m_off.loss_total == m_today.loss_total and m_off.grad_norm == m_today.grad_norm
    assert all(torch.equal(a, b) for a, b in zip(off.adapter_params, today.adapter_params))
