"""A cut-down copy of an SFT corpus folder (`debugrl sft build`) that CPU training can afford (benchmarks/sft-side-by-side.md).

On the 2-core VM one optimizer step over 8 whole oracle trajectories (46k tokens) ran for more than 11 minutes and
took 16 GB of memory, so the side-by-side run trains on a prefix of each trajectory and on fewer of them:
- each example is cut after its last assistant turn that ends within --max-tokens; the cut is at the turn's end-of-turn
  token, so every trained token keeps its full left context and the model still learns where a call stops;
- only --train-tasks train examples (in corpus order, one trajectory per task) and --heldout examples are kept.
The input folder is not touched; the output gets train/heldout.tokens.jsonl, a derivation.json that says how it was
made, and the source's manifest.json with that derivation added under "derivation" (the token ids are the source's,
cut, so its schema and tokenizer still hold, and `debugrl train --bc-corpus` accepts the folder; its counts are the
source's). The chat JSONL is not copied (SftWorkflow reads only the tokens files).

    .venv/bin/python benchmarks/sft_truncate.py --corpus <dir> --out <dir> --max-tokens 4352 --train-tasks 16 --heldout 4
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Cut:
    token_ids: list[int]
    assistant_mask: list[int]


def cut_at_turn_end(token_ids: list[int], mask: list[int], max_tokens: int) -> Cut | None:
    """The longest prefix of at most `max_tokens` that ends right after an assistant span; None when no assistant span
    ends within the limit (nothing left to train)."""
    if len(token_ids) != len(mask):
        raise ValueError(f"token_ids ({len(token_ids)}) and assistant_mask ({len(mask)}) differ in length")
    end = 0
    for i in range(1, min(len(mask), max_tokens) + 1):
        # i is the index just after position i-1; an assistant span ends at i when i-1 is trained and i is not
        if mask[i - 1] == 1 and (i == len(mask) or mask[i] == 0):
            end = i
    return Cut(token_ids[:end], mask[:end]) if end else None


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--max-tokens", type=int, default=4352)
    p.add_argument("--train-tasks", type=int, default=16)
    p.add_argument("--heldout", type=int, default=4)
    a = p.parse_args()
    if a.out.exists():
        raise SystemExit(f"{a.out} exists; choose another --out")
    meta = {}
    for line in (a.corpus / "examples.jsonl").read_text().splitlines():
        e = json.loads(line)
        meta[e["exampleId"]] = e
    kept: dict[str, list[dict]] = {}
    tasks: dict[str, list[str]] = {"train": [], "heldout": []}
    for part, limit in (("train", a.train_tasks), ("heldout", a.heldout)):
        rows = []
        for line in (a.corpus / f"{part}.tokens.jsonl").read_text().splitlines():
            row = json.loads(line)
            e = meta[row["example_id"]]
            if e["kind"] != "trajectory" or len(rows) >= limit:
                continue
            c = cut_at_turn_end(row["token_ids"], row["assistant_mask"], a.max_tokens)
            if c is None:
                continue
            rows.append({**row, "token_ids": c.token_ids, "assistant_mask": c.assistant_mask})
            tasks[part].append(e["provenance"]["taskId"])
        kept[part] = rows
    a.out.mkdir(parents=True)
    for part, rows in kept.items():
        (a.out / f"{part}.tokens.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    derivation = {
        "from": str(a.corpus.resolve()),
        "max_tokens": a.max_tokens,
        "train_tasks": tasks["train"],
        "heldout_tasks": tasks["heldout"],
        "tokens": {part: sum(len(r["token_ids"]) for r in rows) for part, rows in kept.items()},
        "trained_tokens": {part: sum(sum(r["assistant_mask"]) for r in rows) for part, rows in kept.items()},
        "assistant_turns": {part: [sum(1 for i in range(len(r["assistant_mask"])) if r["assistant_mask"][i] and (i + 1 == len(r["assistant_mask"]) or not r["assistant_mask"][i + 1])) for r in rows] for part, rows in kept.items()},
    }
    (a.out / "derivation.json").write_text(json.dumps(derivation, indent=2) + "\n")
    manifest = json.loads((a.corpus / "manifest.json").read_text())
    (a.out / "manifest.json").write_text(json.dumps({**manifest, "derivation": derivation}, indent=2) + "\n")
    print(json.dumps({k: v for k, v in derivation.items() if k != "assistant_turns"}))
    print("assistant turns kept per example:", derivation["assistant_turns"])


if __name__ == "__main__":
    main()
