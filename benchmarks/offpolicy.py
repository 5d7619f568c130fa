"""The five off-policy correction modes side by side on the same off-policy groups (benchmarks/offpolicy.md).

Tiny learnable setup on CPU: the random tiny Qwen3-MoE with LoRA (the learner's test model), prompts of 6 random
tokens, completions of 8 tokens, reward = share of completion tokens in the "good" half of the vocabulary
(learner/synthetic.py's signal). Mismatch is made on purpose in two ways:
  - serving mismatch: rollouts are sampled from the learner's adapter plus Gaussian noise (sigma) on every LoRA weight,
    and their logprobs stored as the server's (lag 0 with a disagreeing server);
  - policy lag: the learner takes 4 on-policy Adam steps, and rollouts come from its snapshot k = 1..4 steps back.
For each scenario and seed, the same groups are scored by every mode, and the script reports:
  - cos: cosine between the mode's policy gradient on those groups and a reference on-policy gradient (8x as many
    groups sampled from the learner itself); `on-policy` is a same-size on-policy batch: the noise ceiling;
  - kept: share of loss tokens left in the loss (1 - masked);
  - d reward: change of the held-out expected reward (Rao-Blackwellised: mean over positions of P(good | prefix),
    on 128 held-out prompts) after one Adam step along the mode's gradient, x1000.

    flock /tmp/debugrl-cpu.lock .venv/bin/python benchmarks/offpolicy.py [--seeds 3]
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import time

import torch

from debugrl_native.learner.config import (
    GeoRsCorrection,
    LearnerConfig,
    LoraConfig,
    SeedClampCorrection,
    SeqMaskCorrection,
    TokenMaskCorrection,
    TokenTisCorrection,
)
from debugrl_native.learner.loss import (
    AdvantageInputs,
    PolicyLossInputs,
    group_advantages,
    policy_loss,
    response_coefficients,
)
from debugrl_native.learner.lora import adapter_weights_swapped, apply_lora, lora_parameters
from debugrl_native.learner.mismatch import k3
from debugrl_native.learner.models import load_from_config

PROMPT, COMPLETION, GROUP = 6, 8, 8
MODES = {
    "seed_clamp": SeedClampCorrection(),
    "token_tis": TokenTisCorrection(),
    "token_mask": TokenMaskCorrection(),
    "seq_mask": SeqMaskCorrection(),
    "geo_rs": GeoRsCorrection(),
}


def build(seed: int):
    cfg = LearnerConfig(lora=LoraConfig(rank=8, alpha=16.0, seed=seed))
    torch.manual_seed(seed)
    model = load_from_config(cfg, torch.device("cpu"))
    apply_lora(model, cfg.lora)
    params = list(lora_parameters(model).values())
    with torch.no_grad():  # a non-trivial starting policy: LoRA B is zero at init
        for p in params:
            p.add_(0.02 * torch.randn_like(p))
    return model, params, int(model.config.vocab_size)


def logprobs(model, ids: torch.Tensor) -> torch.Tensor:
    """log pi of each completion token: [B, COMPLETION]."""
    logits = model(input_ids=ids, use_cache=False).logits.float()
    lp = torch.log_softmax(logits[:, PROMPT - 1:-1], -1)
    return lp.gather(-1, ids[:, PROMPT:, None]).squeeze(-1)


@torch.no_grad()
def sample(model, prompts: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    ids = prompts
    for _ in range(COMPLETION):
        probs = torch.softmax(model(input_ids=ids, use_cache=False).logits[:, -1].float(), -1)
        ids = torch.cat([ids, torch.multinomial(probs, 1, generator=gen)], 1)
    return ids


def rewards(ids: torch.Tensor, vocab: int) -> torch.Tensor:
    return (ids[:, PROMPT:] < vocab // 2).float().mean(1)


@torch.no_grad()
def expected_reward(model, prompts: torch.Tensor, vocab: int, gen: torch.Generator) -> float:
    ids = sample(model, prompts, gen)
    probs = torch.softmax(model(input_ids=ids, use_cache=False).logits[:, PROMPT - 1:-1].float(), -1)
    return float(probs[..., : vocab // 2].sum(-1).mean())


def groups_of(vocab: int, n_groups: int, gen: torch.Generator) -> torch.Tensor:
    prompts = torch.randint(0, vocab, (n_groups, PROMPT), generator=gen)
    return prompts.repeat_interleave(GROUP, 0)


def gradient(model, params, ids, stored_lp, vocab, spec) -> tuple[torch.Tensor, dict]:
    """The mode's policy gradient on these groups (flattened over adapter parameters) and what it kept."""
    n = ids.shape[0]
    r = rewards(ids, vocab)
    adv = torch.cat([group_advantages(AdvantageInputs(r[i:i + GROUP])) for i in range(0, n, GROUP)])
    coef = response_coefficients([i // GROUP for i in range(n)])
    for p in params:
        p.grad = None
    lp = logprobs(model, ids)
    out = policy_loss(PolicyLossInputs(lp.reshape(-1), stored_lp.reshape(-1),
                                       torch.arange(n).repeat_interleave(COMPLETION), adv, coef, offpolicy=spec))
    out.loss.backward()
    g = torch.cat([(p.grad if p.grad is not None else torch.zeros_like(p)).reshape(-1) for p in params])
    kept = 1.0 - float(out.correction.masked.float().mean())
    return g, {"kept": kept}


def cosine(a: torch.Tensor, b: torch.Tensor) -> float:
    na, nb = a.norm(), b.norm()
    return float(a @ b / (na * nb)) if na > 0 and nb > 0 else 0.0


def reward_after_step(model, params, g: torch.Tensor, held_out, vocab, seed: int, lr: float) -> float:
    """Held-out expected reward after one Adam step along g (Adam's first step moves each weight by lr * sign(g))."""
    saved = [p.detach().clone() for p in params]
    opt = torch.optim.Adam(params, lr=lr)
    offset = 0
    for p in params:
        p.grad = g[offset:offset + p.numel()].reshape(p.shape).clone()
        offset += p.numel()
    opt.step()
    value = expected_reward(model, held_out, vocab, torch.Generator().manual_seed(seed))
    with torch.no_grad():
        for p, s in zip(params, saved):
            p.copy_(s)
    return value


def scenario_rows(model, params, vocab, serve_weights, seed, n_groups, lr):
    gen = torch.Generator().manual_seed(1000 + seed)
    held_out = torch.randint(0, vocab, (128, PROMPT), generator=torch.Generator().manual_seed(7))
    base_reward = expected_reward(model, held_out, vocab, torch.Generator().manual_seed(seed))
    # reference: a large on-policy batch
    ref_ids = sample(model, groups_of(vocab, 8 * n_groups, gen), gen)
    with torch.no_grad():
        ref_lp = logprobs(model, ref_ids)
    g_ref, _ = gradient(model, params, ref_ids, ref_lp, vocab, SeedClampCorrection())
    # the noise ceiling: a same-size on-policy batch
    on_ids = sample(model, groups_of(vocab, n_groups, gen), gen)
    with torch.no_grad():
        on_lp = logprobs(model, on_ids)
    g_on, _ = gradient(model, params, on_ids, on_lp, vocab, SeedClampCorrection())
    rows = {"on-policy": {"cos": cosine(g_on, g_ref), "kept": 1.0,
                          "dr": reward_after_step(model, params, g_on, held_out, vocab, seed, lr) - base_reward}}
    # the off-policy groups: sampled and scored by the "server"
    prompts = groups_of(vocab, n_groups, gen)
    with adapter_weights_swapped(params, serve_weights):
        ids = sample(model, prompts, gen)
        with torch.no_grad():
            served_lp = logprobs(model, ids)
    with torch.no_grad():
        lag0 = float(k3((logprobs(model, ids) - served_lp).reshape(-1)).mean())
    for name, spec in MODES.items():
        g, info = gradient(model, params, ids, served_lp, vocab, spec)
        rows[name] = {"cos": cosine(g, g_ref), "kept": info["kept"],
                      "dr": reward_after_step(model, params, g, held_out, vocab, seed, lr) - base_reward}
    return rows, lag0


def lagged_snapshots(model, params, vocab, seed, n_groups, lr, steps=4):
    """Snapshots of the learner's adapter before each of `steps` on-policy Adam steps (index k: k steps behind)."""
    gen = torch.Generator().manual_seed(2000 + seed)
    opt = torch.optim.Adam(params, lr=lr)
    snaps = []
    for _ in range(steps):
        snaps.append([p.detach().clone() for p in params])
        ids = sample(model, groups_of(vocab, n_groups, gen), gen)
        with torch.no_grad():
            lp = logprobs(model, ids)
        g, _ = gradient(model, params, ids, lp, vocab, SeedClampCorrection())
        offset = 0
        for p in params:
            p.grad = g[offset:offset + p.numel()].reshape(p.shape).clone()
            offset += p.numel()
        opt.step()
    return snaps[::-1]  # [1 step behind, 2, 3, 4]


def report(title: str, run) -> None:
    """One seed's rows as they come (the summary tables follow at the end)."""
    rows, lag0 = run
    print(f"{title}: k3 {lag0:.2e} · " + " · ".join(f"{n} cos {r['cos']:.2f} kept {r['kept']:.2f} dr {1000 * r['dr']:+.1f}"
                                                  for n, r in rows.items()), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--groups", type=int, default=16)
    ap.add_argument("--lr", type=float, default=2e-3)
    args = ap.parse_args()
    torch.set_num_threads(2)
    started = time.time()
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · {platform.processor() or platform.machine()} · "
          f"torch {torch.__version__} · {torch.get_num_threads()} threads · load: "
          f"{subprocess.run(['uptime'], capture_output=True, text=True, check=False).stdout.strip()}")
    scenarios: dict[str, list] = {}
    for seed in range(args.seeds):
        model, params, vocab = build(seed)
        cur = [p.detach().clone() for p in params]
        for sigma in (0.003, 0.03):
            gen = torch.Generator().manual_seed(seed * 10 + 1)
            noisy = [w + sigma * torch.randn(w.shape, generator=gen) for w in cur]
            scenarios.setdefault(f"serve noise sigma={sigma}", []).append(
                scenario_rows(model, params, vocab, noisy, seed, args.groups, args.lr))
            report(f"seed {seed} serve noise sigma={sigma}", scenarios[f"serve noise sigma={sigma}"][-1])
        snaps = lagged_snapshots(model, params, vocab, seed, args.groups, 1e-2)
        for k in (1, 4):
            key = f"policy lag {k} (Adam lr 1e-2 steps)"
            scenarios.setdefault(key, []).append(scenario_rows(model, params, vocab, snaps[k - 1], seed, args.groups,
                                                               args.lr))
            report(f"seed {seed} {key}", scenarios[key][-1])
    names = ["on-policy", *MODES]
    for title, runs in scenarios.items():
        lag0 = sum(r[1] for r in runs) / len(runs)
        print(f"\n## {title}: k3 KL(served || learner) = {lag0:.2e} (mean over {len(runs)} seeds)\n")
        print("| mode | cos with on-policy gradient | kept tokens | d held-out reward x1000 |")
        print("|---|---|---|---|")
        for n in names:
            cos = [r[0][n]["cos"] for r in runs]
            kept = [r[0][n]["kept"] for r in runs]
            dr = [1000 * r[0][n]["dr"] for r in runs]
            mean = lambda xs: sum(xs) / len(xs)
            print(f"| {n} | {mean(cos):.3f} ({', '.join(f'{c:.2f}' for c in cos)}) | {mean(kept):.2f} | "
                  f"{mean(dr):+.2f} ({', '.join(f'{d:+.1f}' for d in dr)}) |")
    print(f"\n{time.time() - started:.0f} s; load after: {subprocess.run(['uptime'], capture_output=True, text=True, check=False).stdout.strip()}")


if __name__ == "__main__":
    main()
