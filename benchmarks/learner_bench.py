"""CPU learner benchmarks: grouped vs looped MoE experts (forward + backward), and packing fill / rank balance.

    .venv/bin/python benchmarks/learner_bench.py [--repeats 5] [--trials 200] [--packing-only]

Experts: one Qwen3-MoE experts block with LoRA (tiny but with enough experts that the loop's per-expert overhead
shows), timed side by side, interleaved, median of repeats. Packing: a long-tailed length mix modelled on the seed's
audit (successes mostly short, failures near 16k; trajectories over 16,384 tokens are excluded, as in the seed),
8 GRPO groups x 12, two ranks; targets fill >= 97 %, max/mean rank load <= 1.05. Reported for plain first-fit-
decreasing and for `pack` (FFD plus the bounded bin-completion search the learner uses), beside the fill ceiling that
the Martello-Toth lower bound on the number of microbatches allows.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import torch

from debugrl_native.learner.config import TinyQwen3MoeSource
from debugrl_native.learner.experts import MoeExperts, grouped_experts_forward, looped_experts_forward
from debugrl_native.learner.lora import PackedExpertLora
from debugrl_native.learner.models import build_qwen3_moe
from debugrl_native.learner.packing import (
    assign_to_ranks,
    fill_ratio,
    lower_bound_bins,
    pack,
    pack_first_fit_decreasing,
    rank_balance,
)


def bench_experts(tokens: int, experts: int, top_k: int, hidden: int, inter: int, repeats: int) -> dict[str, float]:
    src = TinyQwen3MoeSource(num_hidden_layers=1, hidden_size=hidden, moe_intermediate_size=inter,
                             num_experts=experts, num_experts_per_tok=top_k)
    block = MoeExperts(build_qwen3_moe(src).model.layers[0].mlp.experts)
    block.lora = PackedExpertLora(block, rank=8, alpha=16.0)
    torch.manual_seed(0)
    x = torch.randn(tokens, hidden)
    w, idx = torch.softmax(torch.randn(tokens, experts), -1).topk(top_k, dim=-1)

    def once(fn) -> float:
        h = x.clone().requires_grad_(True)
        t = time.perf_counter()
        out = fn(block, h, idx, w)
        out.backward(torch.ones_like(out))
        return time.perf_counter() - t

    times = {"grouped": [], "loop": []}
    for fn in (grouped_experts_forward, looped_experts_forward):  # warm-up
        once(fn)
    for _ in range(repeats):
        times["grouped"].append(once(grouped_experts_forward))
        times["loop"].append(once(looped_experts_forward))
    g, lp = statistics.median(times["grouped"]), statistics.median(times["loop"])
    return {"tokens": tokens, "experts": experts, "grouped_ms": g * 1e3, "loop_ms": lp * 1e3, "speedup": lp / g}


def realistic_lengths(rng: np.random.Generator, n: int) -> list[int]:
    success = rng.random(n) < 0.55
    raw = np.where(success, rng.lognormal(np.log(4000), 0.6, n), rng.lognormal(np.log(15000), 0.35, n))
    return [int(v) for v in raw if 300 <= v <= 16384]


def bench_packing(packer, trials: int, world: int = 2, cap: int = 16384) -> dict[str, float]:
    rng = np.random.default_rng(0)
    fills, balances, bins_n, ceilings, extra, seconds = [], [], [], [], [], []
    for _ in range(trials):
        lengths = realistic_lengths(rng, 96)
        t = time.perf_counter()
        bins = packer(lengths, cap)
        seconds.append(time.perf_counter() - t)
        loads = [b.tokens for b in bins]
        ranks = assign_to_ranks(loads, world)
        fills.append(fill_ratio(bins, cap))
        balances.append(rank_balance(loads, ranks))
        extra.append(max(len(r) for r in ranks) - min(len(r) for r in ranks))
        bins_n.append(len(bins))
        bound = lower_bound_bins(lengths, cap)
        ceilings.append(sum(lengths) / (bound * cap))  # no packer can fill better than this
    return {"trials": trials, "fill_mean": float(np.mean(fills)), "fill_min": float(np.min(fills)),
            "balance_mean": float(np.mean(balances)), "balance_max": float(np.max(balances)),
            "max_extra_microbatches": int(max(extra)), "microbatches_mean": float(np.mean(bins_n)),
            "ceiling_mean": float(np.mean(ceilings)), "ceiling_min": float(np.min(ceilings)),
            "ms_mean": 1e3 * float(np.mean(seconds)), "ms_max": 1e3 * float(np.max(seconds))}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--packing-only", action="store_true", help="skip the experts timing")
    args = ap.parse_args()
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    if not args.packing_only:
        print("| tokens | experts | top-k | grouped fwd+bwd ms | loop fwd+bwd ms | loop / grouped |")
        print("|---|---|---|---|---|---|")
    for tokens, experts in () if args.packing_only else ((512, 32), (2048, 64)):
        r = bench_experts(tokens, experts, 4, 64, 32, args.repeats)
        print(f"| {tokens} | {experts} | 4 | {r['grouped_ms']:.1f} | {r['loop_ms']:.1f} | {r['speedup']:.2f}x |")
    print(f"\npacking over {args.trials} batches (8 groups x 12, 2 ranks, 16,384 tokens)")
    print("| packer | fill mean | fill worst | max/mean rank load mean | worst | max extra microbatches "
          "| microbatches mean | ms mean | ms max |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, packer in (("first-fit-decreasing", pack_first_fit_decreasing), ("pack (FFD + bin completion)", pack)):
        p = bench_packing(packer, args.trials)
        print(f"| {name} | {100 * p['fill_mean']:.2f} % | {100 * p['fill_min']:.2f} % | {p['balance_mean']:.4f} "
              f"| {p['balance_max']:.4f} | {p['max_extra_microbatches']} | {p['microbatches_mean']:.1f} "
              f"| {p['ms_mean']:.1f} | {p['ms_max']:.1f} |")
    print(f"fill ceiling from the L2 lower bound: mean {100 * p['ceiling_mean']:.2f} %, "
          f"worst batch {100 * p['ceiling_min']:.2f} %")


if __name__ == "__main__":
    main()
