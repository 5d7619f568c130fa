"""Tokens/s of the embedded inference server's engine with the real SmolLM2-135M-Instruct on this machine's CPU.

    .venv/bin/python benchmarks/inference_bench.py [--runs 3] [--threads 2]

Three measurements, each the median of --runs runs, through the same Engine the HTTP server uses (no HTTP):
- prefill: a ~1000-token prompt with the prefix cache off, max_tokens=1 (prompt tokens / prefill seconds);
- decode: free text, temperature 1, 64 new tokens after a short prompt (tokens / decode seconds);
- constrained: a `tool_choice: "required"` reply with the episode's kind of tool list, max_tokens 64 (completion
  tokens / (prefill + decode) seconds, the prompt re-prefilled each run), plus the wall time of the whole reply.
Prints a markdown table (median and best run) for benchmarks/inference.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import torch

from debugrl_native.inference.engine import Engine
from debugrl_native.inference.models import load_model
from debugrl_native.inference.protocol import ChatRequest
from debugrl_native.inference.sampling import SamplingParams

TOOLS = [
    {"type": "function", "function": {"name": name, "description": desc, "parameters": {
        "type": "object", "properties": props, "required": list(props)}}}
    for name, desc, props in [
        ("read_file", "Read a file of the repository", {"path": {"type": "string"}}),
        ("edit", "Replace lines of a file", {"path": {"type": "string"}, "start": {"type": "integer"},
                                             "end": {"type": "integer"}, "text": {"type": "string"}}),
        ("pdb", "Send one command to the debugger", {"command": {"type": "string"}}),
        ("run_tests", "Run the failing tests", {}),
        ("done", "Finish the episode", {"summary": {"type": "string"}}),
    ]
]


def median_and_best(runs: int, fn) -> tuple[float, float]:
    """Median and best of the runs. On a shared machine the best run is the one least disturbed by other work."""
    values = [fn() for _ in range(runs)]
    return statistics.median(values), max(values)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    load_before = os.getloadavg()[0]
    t0 = time.perf_counter()
    engine = Engine(load_model("smollm2"), prefix_cache=False)
    load_s = time.perf_counter() - t0
    greedy = SamplingParams(temperature=1.0)

    long_text = " ".join(f"Line {i}: the value of x is {i * 7} and the test expects {i * 7 + 1}." for i in range(60))
    long_prompt = engine.render(ChatRequest(messages=[{"role": "user", "content": long_text}]))

    def prefill() -> float:
        g = engine.generate(long_prompt, 1, greedy, seed=0, adapter=None)
        return g.prefill_tokens / g.prefill_s

    story = engine.render(ChatRequest(messages=[{"role": "user", "content": "Write a long story about a debugger."}]))

    def decode() -> float:
        g = engine.generate(story, 64, greedy, seed=1, adapter=None)
        return (len(g.token_ids) - 1) / g.decode_s  # the first token comes from the prefill's logits

    episode = ChatRequest(
        messages=[{"role": "system", "content": "You fix Python bugs with pdb. Call exactly one tool per turn."},
                  {"role": "user",
                   "content": "tests/test_calc.py::test_add fails: assert add(2, 2) == 4. Find the bug."}],
        tools=TOOLS, tool_choice="required", max_tokens=64, temperature=1.0)
    walls: list[float] = []

    def constrained() -> float:
        seed = len(walls)
        t = time.perf_counter()
        reply = engine.complete(episode.model_copy(update={"seed": seed}))
        walls.append(time.perf_counter() - t)
        return reply["usage"]["completion_tokens"] / walls[-1]

    rows = [
        (f"prefill ({len(long_prompt)}-token prompt)", median_and_best(args.runs, prefill)),
        ("decode (free text, 64 tokens)", median_and_best(args.runs, decode)),
        ("constrained tool call (max_tokens 64, incl. prefill)", median_and_best(args.runs, constrained)),
    ]
    print(f"model load from cache: {load_s:.1f} s; torch threads {torch.get_num_threads()}; "
          f"load average before/after: {load_before:.2f} / {os.getloadavg()[0]:.2f}")
    print(f"| measurement | tokens/s, median of {args.runs} | best run |")
    print("|---|---|---|")
    for name, (median, best) in rows:
        print(f"| {name} | {median:.1f} | {best:.1f} |")
    print(f"| constrained reply wall time | {statistics.median(walls):.2f} s | {min(walls):.2f} s |")


if __name__ == "__main__":
    main()
