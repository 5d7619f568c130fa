"""The embedded server's engine before (commit 81612aa: one request at a time, one cached prefix) and after (continuous
batching, a KV cache per conversation), side by side in one run, on episode-shaped conversations with the real tool
list. Real SmolLM2-135M-Instruct, this machine's CPU, no HTTP.

    flock /tmp/debugrl-cpu.lock .venv/bin/python benchmarks/inference_side_by_side.py [--turns 3] [--max-tokens 48]
        [--concurrency 1,2,4,8] [--engines old,new] [--decode-only] [--small-steps]

Episodes. Episode i opens like activities/prompt.ts does for task i of tasks/ (SYSTEM_FULL read from that file, the
task's file list) with the 18 tools of native/tests/fixtures/harness_tool_specs.json (toolSpecs('full')), and asks for
`tool_choice: "required"` at temperature 1. After each reply the conversation grows by the model's own call and a
tool result: the next workspace file of the task with line numbers (at most 40 lines), as read_file shows it.
At concurrency c, c episodes run at once (one thread each, as the workflow's concurrent episodes do), each `--turns`
turns; a turn is one chat completion.

Reported per engine and concurrency: aggregate generated tokens/s (all completion tokens / wall time, prefills
included: what rollouts get), per-turn latency p50/p95, and the share of prompt tokens served from a KV cache. The old
engine is loaded from git (`git show 81612aa:...engine.py`) into a temporary module of the current package, so it
runs with today's adapters/constraint/sampling code (both engines sample the same tokens); its cached share is read
from its Generation.prefill_tokens. "ideal" is the share an unbounded, token-exact prefix cache shared by all
conversations could serve: each prompt's longest common prefix with any prompt submitted before it or any finished
reply's prompt + completion; the rest is new text (the user message, the tool results, a re-rendered reply) that
must be prefilled. For the new engine a line after the table splits the scheduler's step time into steps that carried
a prompt chunk and steps that only decoded.

--decode-only: the steady-state decode rate alone, batch b = 1, 2, 4, 8 after a cached prompt, and where a step's
time goes (forward, sampling incl. the tool-call constraint, the constraint alone, the rest), for the new engine on
free text and on constrained tool calls, then the old engine's batch-1 free-text rate in the same run.

--small-steps: the threads of decode-only steps (scheduler.py, SMALL_STEP_MAX_TOKENS), side by side on one engine:
always one thread (the rule from 16ed99f to 2026-12-06) against the load-aware count (cpu_share.py), constrained tool
calls at batch 1, 4, 8 and 16, each pair run back to back. Run it once on a quiet machine and once beside a busy
process (`nice yes >/dev/null &` holds one core).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import torch

from debugrl_native.inference import engine as new_engine_module
from debugrl_native.inference.kv_cache import common_prefix
from debugrl_native.inference.models import load_model
from debugrl_native.inference.protocol import ChatRequest
from debugrl_native.inference.sampling import SamplingParams

ROOT = Path(__file__).resolve().parents[1]
OLD_COMMIT = "81612aa"
TOOLS = json.loads((ROOT / "native/tests/fixtures/harness_tool_specs.json").read_text())


def old_engine_class():
    """Engine as of OLD_COMMIT, imported as debugrl_native.inference._engine_<commit> (relative imports resolve to
    today's sibling modules; nothing is written into the tree)."""
    source = subprocess.run(["git", "show", f"{OLD_COMMIT}:native/debugrl_native/inference/engine.py"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout
    name = f"debugrl_native.inference._engine_{OLD_COMMIT}"
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "debugrl_native.inference"
    sys.modules[name] = module
    exec(compile(source, f"{OLD_COMMIT}:engine.py", "exec"), module.__dict__)
    return module.Engine


def system_prompt() -> str:
    text = (ROOT / "activities/prompt.ts").read_text()
    return re.search(r"const SYSTEM_FULL = `(.*?)`;", text, re.S).group(1)


def task_dirs(n: int) -> list[Path]:
    return sorted(p for p in (ROOT / "tasks").iterdir() if (p / "workspace").is_dir())[:n]


def opening(task: Path) -> list[dict]:
    files = sorted(str(p.relative_to(task / "workspace")) for p in (task / "workspace").rglob("*") if p.is_file())
    user = ("The tests in /workspace fail. Find the cause and fix it.\n\nFiles:\n" + "\n".join(f"  {f}" for f in files)
            + "\n\nRun the tests with run_tests (or bash: python -m pytest -q). Only the project's source files are "
              "graded; edits to\ntests or test configuration are ignored.")
    return [{"role": "system", "content": system_prompt()}, {"role": "user", "content": user}]


def observation(task: Path, turn: int) -> str:
    files = sorted(p for p in (task / "workspace").rglob("*.py"))
    lines = files[turn % len(files)].read_text().splitlines()[:40]
    return "\n".join(f"{i + 1:4}| {line}" for i, line in enumerate(lines))


class Recorder:
    """Wraps an engine's complete() to time each turn and count cached prompt tokens (either engine)."""

    def __init__(self, engine):
        self.engine = engine
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.completion = 0
        self.prompt = 0
        self.cached = 0
        self.ideal = 0
        self.seen: list[torch.Tensor] = []  # prompts submitted, then prompt + completion once finished
        original = engine.generate

        def generate(prompt, *a, **kw):
            ids = torch.tensor(prompt, dtype=torch.long)
            with self.lock:
                self.ideal += max([common_prefix(s, ids) for s in self.seen] + [0])
                self.seen.append(ids)
            gen = original(prompt, *a, **kw)
            with self.lock:
                self.seen.append(torch.tensor(prompt + gen.token_ids, dtype=torch.long))
                self.prompt += len(prompt)
                self.cached += len(prompt) - gen.prefill_tokens
            return gen

        engine.generate = generate

    def turn(self, req: ChatRequest) -> dict:
        t = time.perf_counter()
        reply = self.engine.complete(req)
        with self.lock:
            self.latencies.append(time.perf_counter() - t)
            self.completion += reply["usage"]["completion_tokens"]
        return reply


def episode(rec: Recorder, task: Path, turns: int, max_tokens: int, seed: int) -> None:
    msgs = opening(task)
    for t in range(turns):
        req = ChatRequest.model_validate({"messages": msgs, "tools": TOOLS, "tool_choice": "required",
                                          "max_tokens": max_tokens, "temperature": 1.0, "seed": seed * 100 + t})
        reply = rec.turn(req)
        calls = reply["choices"][0]["message"]["tool_calls"]
        msgs = msgs + [{"role": "assistant", "content": None, "tool_calls": calls},
                       {"role": "tool", "tool_call_id": calls[0]["id"], "content": observation(task, t)}]


def run_episodes(engine, concurrency: int, turns: int, max_tokens: int, offset: int) -> dict:
    rec = Recorder(engine)
    tasks = task_dirs(offset + concurrency)[offset:]
    threads = [threading.Thread(target=episode, args=(rec, task, turns, max_tokens, offset + i))
               for i, task in enumerate(tasks)]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t0
    lat = sorted(rec.latencies)
    return {"wall_s": wall, "turns": len(lat), "completion_tokens": rec.completion, "tok_s": rec.completion / wall,
            "p50_s": statistics.median(lat), "p95_s": lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))],
            "prompt_tokens": rec.prompt, "cached_share": rec.cached / max(1, rec.prompt),
            "ideal_share": rec.ideal / max(1, rec.prompt)}


STORY = [{"role": "user", "content": "Write a long story about a debugger."}]
STEP_KEYS = ("forward_s", "sample_s", "constraint_s", "other_s")


def decode_only(engine, batch: int, tokens: int, constrained: bool = False) -> dict:
    """b sequences after a cached prompt: free text (the story prompt), or tool calls under the constraint (the first
    task's episode opening with the real tool list)."""
    if constrained:
        req = ChatRequest.model_validate({"messages": opening(task_dirs(1)[0]), "tools": TOOLS,
                                          "tool_choice": "required", "max_tokens": tokens, "temperature": 1.0})
    else:
        req = ChatRequest(messages=STORY)
    prompt = engine.render(req)
    engine.generate(prompt, 1, SamplingParams(1.0), seed=0, adapter=None)  # caches the prompt
    s0 = dict(vars(engine.scheduler.stats))
    out: list = [None] * batch

    def one(i: int) -> None:
        constraint = None
        if constrained:
            constraint = new_engine_module.ToolCallConstraint(engine.vocab, engine.encode, req.constrained_tools,
                                                              engine.tokenizer.eos_token_id)
        out[i] = engine.generate(prompt, tokens, SamplingParams(1.0), seed=i + 1, adapter=None, constraint=constraint)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(batch)]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t0
    s1 = vars(engine.scheduler.stats)
    steps = s1["steps"] - s0["steps"]
    made = sum(len(g.token_ids) for g in out)
    return {"engine": "new", "constrained": constrained, "batch": batch, "tok_s": round(made / wall, 2),
            "steps": steps, "ms_per_step": {k: round(1000 * (s1[k] - s0[k]) / max(1, steps), 2) for k in STEP_KEYS}}


def old_decode_only(engine, tokens: int) -> dict:
    """The old engine's batch-1 free-text decode after the same cached prompt."""
    story = engine.render(ChatRequest(messages=STORY))
    with engine.lock:
        engine.generate(story, 1, SamplingParams(1.0), seed=0, adapter=None)
        t0 = time.perf_counter()
        gen = engine.generate(story, tokens, SamplingParams(1.0), seed=1, adapter=None)
        wall = time.perf_counter() - t0
    return {"engine": "old", "constrained": False, "batch": 1, "tok_s": round(len(gen.token_ids) / wall, 2)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=3)
    ap.add_argument("--max-tokens", type=int, default=48)
    ap.add_argument("--concurrency", default="1,2,4,8")
    ap.add_argument("--engines", default="old,new")
    ap.add_argument("--decode-only", action="store_true")
    ap.add_argument("--small-steps", action="store_true")
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"])
    args = ap.parse_args()
    torch.set_num_threads(2)
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, load average before: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}, torch threads {torch.get_num_threads()}", flush=True)
    loaded = load_model("smollm2")
    if args.dtype == "bfloat16":
        loaded.model.to(torch.bfloat16)
    if args.small_steps:
        engine = new_engine_module.Engine(loaded)
        share_threads = engine.scheduler.cpu_share.threads
        print("| batch | small steps on | tok/s | steps | of them on one thread |")
        print("|---|---|---|---|---|", flush=True)
        for b in (1, 4, 8, 16):
            for arm in ("one thread", "load-aware"):
                engine.scheduler.cpu_share.threads = (lambda most: 1) if arm == "one thread" else share_threads
                s0 = dict(vars(engine.scheduler.stats))
                r = decode_only(engine, b, 48, constrained=True)
                s1 = vars(engine.scheduler.stats)
                one = s1["small_steps_one_thread"] - s0["small_steps_one_thread"]
                print(f"| {b} | {arm} | {r['tok_s']:.2f} | {s1['small_steps'] - s0['small_steps']} | {one} |", flush=True)
        print(f"# load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return
    if args.decode_only:
        engine = new_engine_module.Engine(loaded)
        for constrained in (False, True):
            for b in (1, 2, 4, 8):
                print(json.dumps(decode_only(engine, b, 32 if not constrained else 48, constrained)), flush=True)
        print(json.dumps(decode_only(engine, 1, 32)), flush=True)
        print(json.dumps(old_decode_only(old_engine_class()(loaded), 32)), flush=True)
        print(f"# load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return
    engines = {"old": lambda: old_engine_class()(loaded), "new": lambda: new_engine_module.Engine(loaded)}
    print("| engine | concurrency | turns | completion tokens | wall s | aggregate tok/s | turn p50 s | turn p95 s "
          "| prompt tokens | from cache | ideal |")
    print("|---|---|---|---|---|---|---|---|---|---|---|", flush=True)
    splits = []
    for c in [int(x) for x in args.concurrency.split(",")]:
        for name in args.engines.split(","):
            engine = engines[name]()  # a fresh engine per cell: no cache carried over from the previous cell
            r = run_episodes(engine, c, args.turns, args.max_tokens, offset=0)
            print(f"| {name} | {c} | {r['turns']} | {r['completion_tokens']} | {r['wall_s']:.1f} | {r['tok_s']:.2f} "
                  f"| {r['p50_s']:.2f} | {r['p95_s']:.2f} | {r['prompt_tokens']} | {100 * r['cached_share']:.1f} % "
                  f"| {100 * r['ideal_share']:.1f} % |", flush=True)
            if name == "new":
                st = vars(engine.scheduler.stats)
                busy = st["prefill_step_s"] + st["decode_step_s"]
                splits.append(f"# new, concurrency {c}: steps with a prompt chunk {st['prefill_step_s']:.1f} s "
                              f"({100 * st['prefill_step_s'] / max(busy, 1e-9):.0f} % of step time), decode-only "
                              f"steps {st['decode_step_s']:.1f} s; {st['prefill_tokens']} prompt tokens prefilled, "
                              f"{st['decode_tokens']} decoded, {st['steps']} steps, max active {st['max_active']}")
    for line in splits:
        print(line)
    print(f"# load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
