"""Peak memory of one GRPO step against microbatch tokens, SmolLM2-135M on CPU, with and without checkpointing.

    .venv/bin/python benchmarks/learner_memory.py [--tokens 1024 2048 4096] [--out benchmarks/learner-memory.json]

Each point runs in a fresh process (so one point's freed memory does not hide in the next one's peak): the learner
loads the cached SmolLM2 folder ($DEBUGRL_DATA_DIR/models/smollm2-135m-instruct, made from the GGUF on first use), then
one GRPO step trains one group of two trajectories that fill one microbatch of N tokens (half prompt, half completion,
so logits are taken over N/2 positions; the KL reference forward is included). Reported beside the measured step peak
(Linux VmHWM, reset at the step's start) is memory.py's estimate, fixed + N * per_token, which the learner sizes
microbatches by; the estimate must stay above the measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

POINT = r"""
import json, sys, time
from pathlib import Path
from debugrl_native.inference.models import SMOLLM2_ID, data_dir, load_smollm2
from debugrl_native.learner.config import HfDirectorySource, LearnerConfig, LoraConfig
from debugrl_native.learner.memory import current_bytes
from debugrl_native.learner.protocol import Group, Step, TrainBatch, Trajectory
from debugrl_native.learner.train import Learner
import torch
tokens, ckpt, out = int(sys.argv[1]), sys.argv[2] == "on", sys.argv[3]
folder = data_dir() / "models" / SMOLLM2_ID
if not (folder / "config.json").is_file():
    load_smollm2()
cfg = LearnerConfig(model=HfDirectorySource(path=folder), lora=LoraConfig(rank=16, alpha=32.0), gradient_checkpointing=ckpt,
                    memory_budget_gb=20.0, output_dir=Path(out), base_model_name="smollm2")
learner = Learner(cfg)
before = current_bytes(torch.device("cpu"))
half = tokens // 4  # two trajectories of tokens/2 each: half prompt, half completion
g = torch.Generator().manual_seed(0)
def traj(i):
    ids = torch.randint(10, 49000, (2 * half,), generator=g).tolist()
    return Trajectory(trajectory_id=f"t{i}", reward=float(i), steps=[Step(prompt_ids=ids[:half], completion_ids=ids[half:],
                      completion_logprobs=[-1.0] * half, policy_version=0)])
m = learner.train_step(TrainBatch(groups=[Group(group_id="g", trajectories=[traj(0), traj(1)])]))
plan = learner.memory
print(json.dumps({"tokens": m.tokens, "checkpointing": ckpt, "microbatches": m.microbatches, "before_step_bytes": before,
                  "peak_bytes": m.peak_memory_bytes, "peak_kind": m.peak_memory_kind, "fixed_bytes": plan.fixed_bytes,
                  "per_token_bytes": plan.per_token_bytes,
                  "estimate_bytes": plan.fixed_bytes + m.tokens * plan.per_token_bytes, "step_seconds": m.step_seconds}))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", type=int, nargs="+", default=[1024, 2048, 4096])
    ap.add_argument("--out", type=Path, default=Path("benchmarks/learner-memory.json"))
    args = ap.parse_args()
    rows = []
    for tokens in args.tokens:
        for ckpt in ("on", "off"):
            r = subprocess.run([sys.executable, "-c", POINT, str(tokens), ckpt, f"/tmp/learner-memory-{os.getpid()}"],
                               check=False, capture_output=True, text=True)
            if r.returncode:
                sys.exit(f"point {tokens} {ckpt} failed:\n{r.stderr[-3000:]}")
            row = json.loads(r.stdout.strip().splitlines()[-1])
            rows.append(row)
            gb = 1024**3
            print(f"{row['tokens']:>6} tokens  checkpointing {ckpt:>3}  peak {row['peak_bytes'] / gb:6.2f} GB  "
                  f"estimate {row['estimate_bytes'] / gb:6.2f} GB  (before the step {row['before_step_bytes'] / gb:.2f} GB)"
                  f"  {row['step_seconds']:.1f} s", flush=True)
    load = Path("/proc/loadavg").read_text().split()[:3]
    args.out.write_text(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "loadavg": load,
                                    "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
