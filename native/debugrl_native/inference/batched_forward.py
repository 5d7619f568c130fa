"""One forward pass over new tokens of many sequences at once, for Llama-family models (SmolLM2 is one).

Why our own forward. Decoding is bound by reading the weights (SmolLM2-135M: ~540 MB in float32 per step), so the
lever is to read them once for every active sequence. transformers 5 has continuous batching (`generate_batch`,
ContinuousBatchingManager with a paged cache), but it samples inside its runner with one global seed and one logits
processor chain, so it cannot keep a torch.Generator per request, drive our stateful tool-call constraint (which feeds
several forced tokens at once), or report the exact unconstrained logprobs; and its paged cache lives inside one
manager, with no notion of the adapter version that computed a block. This file is the ~60 lines it takes to do the
forward ourselves while calling the model's own modules (norms, q/k/v/o projections, MLP, embeddings, lm_head), so a
PEFT LoRA layer injected into a projection still applies exactly as it does in the learner.

Packing. The new tokens of all sequences are concatenated into one row `[1, N, hidden]` (no padding): every linear
layer runs once over N rows, which is where the weight reads are shared. Each token gets RoPE at its own sequence's
position. Attention is per sequence (a short Python loop per layer): the sequence's new keys/values are written into
its own buffer (kv_cache.SequenceKV) and its queries attend to that buffer, causally among the new tokens. With one
new token the attention is a plain SDPA over the prefix; a prefill chunk or a forced run uses a causal mask offset by
the prefix length.

Exactness. Row i of a linear layer does not depend on the other rows, except for the BLAS kernel's summation order,
which may change with N: results agree with a batch-of-one run to floating-point noise (the tests state 1e-4 on
logprobs), not bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from .kv_cache import SequenceKV


@dataclass
class Feed:
    """New tokens of one sequence for this step; `logits`: which of their positions need logits ("all", "last" or
    "none")."""

    kv: SequenceKV
    ids: list[int]
    logits: str = "all"


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def causal_mask(new: int, before: int) -> torch.Tensor:
    """[new, before + new] bool, True where query i (at position before + i) may attend key j: j <= before + i."""
    return torch.arange(before + new)[None, :] <= (torch.arange(new)[:, None] + before)


def llama_stack(model: torch.nn.Module) -> torch.nn.Module:
    """The LlamaForCausalLM inside a PeftModel (or the model itself)."""
    return model.get_base_model() if hasattr(model, "get_base_model") else model


@torch.inference_mode()
def forward(model: torch.nn.Module, feeds: list[Feed]) -> list[torch.Tensor | None]:
    """Run every feed's tokens after its cached ones; append their keys/values to its buffer. Returns per feed the
    float32 logits `[len(ids), V]` ("all"), `[1, V]` ("last") or None."""
    lm = llama_stack(model)
    core = lm.model
    lengths = [len(f.ids) for f in feeds]
    starts = [f.kv.length for f in feeds]
    for f, n in zip(feeds, lengths):
        if f.kv.length + n > f.kv.capacity:
            raise ValueError(f"KV buffer overflow: {f.kv.length} + {n} > {f.kv.capacity}")
    ids = torch.tensor([t for f in feeds for t in f.ids], dtype=torch.long)[None]
    positions = torch.cat([torch.arange(s, s + n) for s, n in zip(starts, lengths)])[None]
    h = core.embed_tokens(ids)
    cos, sin = core.rotary_emb(h, positions)
    cos, sin = cos[:, None], sin[:, None]  # [1, 1, N, head_dim], broadcast over heads
    masks = [None if n == 1 else causal_mask(n, s) for s, n in zip(starts, lengths)]
    total = ids.shape[1]

    for li, layer in enumerate(core.layers):
        attn = layer.self_attn
        x = layer.input_layernorm(h)
        q = attn.q_proj(x).view(1, total, -1, attn.head_dim).transpose(1, 2)
        k = attn.k_proj(x).view(1, total, -1, attn.head_dim).transpose(1, 2)
        v = attn.v_proj(x).view(1, total, -1, attn.head_dim).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        outs = []
        off = 0
        for f, s, n, mask in zip(feeds, starts, lengths, masks):
            buf = f.kv.data[li]  # [2, kv_heads, capacity, head_dim]
            buf[0, :, s : s + n] = k[0, :, off : off + n]
            buf[1, :, s : s + n] = v[0, :, off : off + n]
            outs.append(F.scaled_dot_product_attention(
                q[:, :, off : off + n], buf[0, :, : s + n][None], buf[1, :, : s + n][None],
                attn_mask=mask, scale=attn.scaling, enable_gqa=True))
            off += n
        o = torch.cat(outs, dim=2) if len(outs) > 1 else outs[0]
        h = h + attn.o_proj(o.transpose(1, 2).reshape(1, total, -1))
        h = h + layer.mlp(layer.post_attention_layernorm(h))

    for f, n in zip(feeds, lengths):
        f.kv.length += n
    rows: list[int] = []
    spans: list[tuple[int, int] | None] = []
    off = 0
    for f, n in zip(feeds, lengths):
        if f.logits == "all":
            spans.append((len(rows), len(rows) + n))
            rows.extend(range(off, off + n))
        elif f.logits == "last":
            spans.append((len(rows), len(rows) + 1))
            rows.append(off + n - 1)
        else:
            spans.append(None)
        off += n
    if not rows:
        return [None] * len(feeds)
    logits = lm.lm_head(core.norm(h[0, rows])).float()
    return [None if span is None else logits[span[0] : span[1]] for span in spans]
