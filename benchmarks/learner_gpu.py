"""GPU learner measurement: Qwen3-MoE at the real layer sizes, random weights, 16k context, looped vs grouped.

    python benchmarks/learner_gpu.py --layers 8 --seq 16384        # on one H200 (bf16)
    python benchmarks/learner_gpu.py --tiny                         # CPU smoke test of this very script

Layer sizes are Qwen3-Coder-30B-A3B's: hidden 2048, 32 heads x 128 (4 KV heads), 128 experts, 8 routed, MoE
intermediate 768, vocab 151,936. As many layers as fit memory/time (--layers). One train step = forward + backward of
one packed microbatch through the LoRA learner path (adapters on attention and experts), timed after a warm-up.

MFU (PaLM, Chowdhery et al. 2022, appendix B): 6 * N_active * tokens + 12 * layers * (heads * head_dim) * seq * tokens
attention term (halved for causal), over the measured step time and the bf16 peak (~790 TFLOP/s measured on H200).
With a frozen base the true FLOPs are ~2/3 of 6N (no weight gradients for the base); we report the standard 6N
figure and say so.
"""

from __future__ import annotations

import argparse
import json
import time

import torch

from debugrl_native.learner.config import LoraConfig, TinyQwen3MoeSource
from debugrl_native.learner.experts import set_experts_impl
from debugrl_native.learner.lora import apply_lora
from debugrl_native.learner.models import build_qwen3_moe

PEAK_BF16_FLOPS = 790e12


def active_params(src: TinyQwen3MoeSource) -> int:
    h, L = src.hidden_size, src.num_hidden_layers
    attn = h * src.head_dim * (src.num_attention_heads * 2 + src.num_key_value_heads * 2)
    moe = src.num_experts_per_tok * 3 * h * src.moe_intermediate_size + h * src.num_experts
    return L * (attn + moe) + 2 * src.vocab_size * h


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tiny", action="store_true", help="tiny sizes on CPU, to test the script")
    ap.add_argument("--layers", type=int, default=8)
    ap.add_argument("--seq", type=int, default=16384)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--impls", default="loop,grouped")
    args = ap.parse_args(argv)
    if args.tiny:
        src = TinyQwen3MoeSource(num_hidden_layers=2)
        seq, dtype, device, attn = 256, torch.float32, "cpu", "sdpa"
    else:
        src = TinyQwen3MoeSource(vocab_size=151936, hidden_size=2048, num_hidden_layers=args.layers,
                                 num_attention_heads=32, num_key_value_heads=4, head_dim=128, num_experts=128,
                                 num_experts_per_tok=8, moe_intermediate_size=768)
        seq, dtype, device, attn = args.seq, torch.bfloat16, "cuda", "sdpa"
    model = build_qwen3_moe(src, dtype, attn, device)
    apply_lora(model, LoraConfig(rank=16, alpha=32.0))
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.train()
    ids = torch.randint(0, src.vocab_size, (1, seq), device=device)
    # packed like the learner: 4 sequences of seq/4 tokens with restarting position ids
    pos = torch.arange(seq // 4, device=device).repeat(4)[None, :seq]
    keep = torch.arange(seq - 1, device=device)
    results = []
    for impl in args.impls.split(","):
        set_experts_impl(model, impl)  # type: ignore[arg-type]
        times = []
        if device == "cuda":
            torch.cuda.reset_peak_memory_stats()
        for step in range(args.steps + 1):
            if device == "cuda":
                torch.cuda.synchronize()
            t = time.perf_counter()
            logits = model(input_ids=ids, position_ids=pos, use_cache=False, logits_to_keep=keep).logits[0]
            loss = torch.nn.functional.cross_entropy(logits.float(), ids[0, 1:])
            loss.backward()
            if device == "cuda":
                torch.cuda.synchronize()
            if step:  # the first is warm-up
                times.append(time.perf_counter() - t)
            model.zero_grad(set_to_none=True)
        dt = sum(times) / len(times)
        # PaLM's 12 * L * (heads * head_dim) * seq per token for attention, halved for the causal mask
        attn_width = src.num_attention_heads * src.head_dim
        flops = 6 * active_params(src) * seq + 6 * src.num_hidden_layers * attn_width * seq * seq
        results.append({
            "impl": impl, "layers": src.num_hidden_layers, "seq": seq, "step_s": dt, "tokens_per_s": seq / dt,
            "mfu": flops / dt / PEAK_BF16_FLOPS if device == "cuda" else None,
            "peak_memory_gib": torch.cuda.max_memory_allocated() / 2**30 if device == "cuda" else None,
        })
        print(json.dumps(results[-1]), flush=True)
    if len(results) == 2:
        print(json.dumps({"grouped_speedup_over_loop": results[0]["step_s"] / results[1]["step_s"]}))
    return results


if __name__ == "__main__":
    main()
