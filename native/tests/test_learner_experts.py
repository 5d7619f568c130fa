"""Grouped-GEMM experts against the per-expert loop (and against transformers' own eager experts)."""

import pytest
import torch

from debugrl_native.learner.config import TinyQwen3MoeSource
from debugrl_native.learner.experts import (
    MoeExperts,
    PackedExpertLora,
    expert_token_counts,
    grouped_experts_forward,
    looped_experts_forward,
    native_grouped_mm_available,
    sort_by_expert,
)
from debugrl_native.learner.models import build_qwen3_moe


def test_token_counts_use_fixed_size_and_match_hand_count():
    ids = torch.tensor([[0, 3], [3, 1], [0, 3]])
    # expert 0: 2 rows, expert 1: 1, expert 2: 0, expert 3: 3, expert 4 (never hit): 0 -> size stays 5
    assert expert_token_counts(ids, 5).tolist() == [2, 1, 0, 3, 0]


def test_sort_by_expert_groups_rows_and_offsets():
    ids = torch.tensor([[2, 0], [0, 1]])
    w = torch.tensor([[0.7, 0.3], [0.6, 0.4]])
    r = sort_by_expert(ids, w, 3)
    # flat choices: (t0,e2) (t0,e0) (t1,e0) (t1,e1) -> stable order by expert: e0:t0,t1  e1:t1  e2:t0
    assert r.token_index.tolist() == [0, 1, 1, 0]
    assert r.weights.tolist() == pytest.approx([0.3, 0.6, 0.4, 0.7])
    assert r.offsets.tolist() == [2, 3, 4]  # cumulative ends of counts [2, 1, 1]


def _experts_with_lora(seed=0):
    model = build_qwen3_moe(TinyQwen3MoeSource(num_hidden_layers=1, seed=seed))
    base = model.model.layers[0].mlp.experts
    experts = MoeExperts(base)
    torch.manual_seed(seed)
    experts.lora = PackedExpertLora(experts, rank=4, alpha=8.0)
    with torch.no_grad():  # B starts at zero; give it values so the LoRA path is really exercised
        for proj in ("gate", "up", "down"):
            getattr(experts.lora, f"{proj}_B").normal_(0, 0.1)
    return base, experts


def _run(fn, experts, hidden, idx, w, **kw):
    params = [experts.gate_up_proj, experts.down_proj] + list(experts.lora.parameters())
    for p in params:
        p.requires_grad_(True)
        p.grad = None
    h = hidden.clone().requires_grad_(True)
    out = fn(experts, h, idx, w, **kw)
    # a non-uniform upstream gradient, so a wrong row permutation cannot cancel out
    out.backward(torch.linspace(-1, 1, out.numel()).reshape(out.shape))
    return out.detach(), h.grad, [p.grad.clone() for p in params]


@pytest.mark.parametrize("force_fallback", [False, True])
def test_grouped_equals_loop_outputs_and_gradients(force_fallback):
    _, experts = _experts_with_lora()
    torch.manual_seed(1)
    hidden = torch.randn(37, experts.hidden_dim)
    logits = torch.randn(37, experts.num_experts)
    w, idx = torch.softmax(logits, -1).topk(2, dim=-1)
    idx[0] = torch.tensor([7, 6])  # make sure the last experts are hit
    out_g, dh_g, grads_g = _run(grouped_experts_forward, experts, hidden, idx, w, force_fallback=force_fallback)
    out_l, dh_l, grads_l = _run(looped_experts_forward, experts, hidden, idx, w)
    torch.testing.assert_close(out_g, out_l, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(dh_g, dh_l, rtol=1e-5, atol=1e-5)
    for a, b in zip(grads_g, grads_l):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)
    assert all(g.abs().sum() > 0 for g in grads_g[2:])  # the LoRA grads are real, not all zero


def test_grouped_without_lora_equals_transformers_eager_experts():
    base, experts = _experts_with_lora()
    experts.lora.enabled = False
    torch.manual_seed(2)
    hidden = torch.randn(19, experts.hidden_dim)
    w, idx = torch.softmax(torch.randn(19, experts.num_experts), -1).topk(2, dim=-1)
    # transformers wraps Qwen3MoeExperts.forward in a dispatcher (functools.wraps); __wrapped__ is its eager loop.
    ref = type(base).forward.__wrapped__(base, hidden, idx, w)
    torch.testing.assert_close(grouped_experts_forward(experts, hidden, idx, w), ref, rtol=1e-5, atol=1e-5)


def test_native_grouped_mm_is_present_in_this_torch():
    # torch 2.15 ships torch.nn.functional.grouped_mm with a CPU kernel; if this fails the benchmark is measuring
    # the fallback, and the report must say so.
    assert native_grouped_mm_available()
