"""Supervised fine-tuning on teacher trajectories: assistant-only masks, the SFT loss and one SFT step.

Reads top to bottom: render a conversation into tokens with its assistant mask, the loss, one step, held-out loss,
and the `tokenize` command that `debugrl sft build` runs on a corpus folder.

The seed computed the SFT loss on assistant tokens only (user and tool messages masked out), trained LoRA on the
30B-A3B MoE, and packed chains into microbatches of at most 16,384 tokens; this module reuses the RL learner's model,
adapters, packing and sharding (train.py) for exactly that.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import torch

from .packing import Chain, PackedSequence, assemble, assign_to_ranks, fill_ratio, pack
from .protocol import SftExample

# ---------------------------------------------------------------------------------------------------------------------
# Rendering with the policy's chat template


class MaskError(ValueError):
    """A corpus whose tokens and masks disagree, or a conversation the template cannot render consistently."""


def _render(tokenizer, messages: list[dict], add_generation_prompt: bool) -> str:
    return tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=add_generation_prompt)


def render_with_mask(tokenizer, messages: list[dict], tools: list[dict] | None, train_from_message: int = 0,
                     calls_only: bool = True) -> tuple[list[int], list[bool]]:
    """Token ids of a whole conversation and, per token, whether it is trained.

    The text is what the embedded server renders (inference/tool_format.py: tools in the system message, calls as
    `<tool_call>` blocks, tool results as user turns). Trained: every token of each assistant reply from message
    `train_from_message` on, through its end-of-turn token; the `<|im_start|>assistant\\n` header before it is the
    prompt, not the reply. With `calls_only` an assistant's free text is dropped and only its call kept, because the
    embedded server's constrained decoding writes nothing but the call.
    """
    from ..inference.tool_format import template_messages

    msgs = []
    trained_ordinals: set[int] = set()
    ordinal = 0
    for i, m in enumerate(messages):
        m = dict(m)
        if m["role"] == "assistant":
            if calls_only and m.get("tool_calls"):
                m["content"] = ""
            if i >= train_from_message:
                trained_ordinals.add(ordinal)
            ordinal += 1
        msgs.append(m)
    templ = template_messages(msgs, tools)
    full = _render(tokenizer, templ, False)
    spans: list[tuple[int, int]] = []
    ordinal = 0
    for j, m in enumerate(templ):
        if m["role"] != "assistant":
            continue
        if ordinal in trained_ordinals:
            prompt = _render(tokenizer, templ[:j], True)
            upto = _render(tokenizer, templ[: j + 1], False)
            if not upto.startswith(prompt) or not full.startswith(upto):
                raise MaskError("the chat template does not render this conversation as a sequence of prefixes")
            end = upto.rstrip("\n")  # the reply ends with the end-of-turn token; the newline after it is not generated
            spans.append((len(prompt), len(end)))
        ordinal += 1
    enc = tokenizer(full, add_special_tokens=False, return_offsets_mapping=True)
    ids = list(enc["input_ids"])
    mask = [any(a <= s < b for a, b in spans) for s, _ in enc["offset_mapping"]]
    if mask and mask[0]:
        raise MaskError("the first token cannot be trained: nothing predicts it")
    return ids, mask


def check_example(ex: dict) -> SftExample:
    """Validate stored or rendered tokens: one flag per token, something trained, the first token not."""
    ids, mask = ex.get("token_ids"), ex.get("assistant_mask")
    if not isinstance(ids, list) or not isinstance(mask, list) or len(ids) != len(mask):
        raise MaskError(f"example {ex.get('example_id')}: {len(ids or [])} tokens but {len(mask or [])} mask flags")
    if not any(mask):
        raise MaskError(f"example {ex.get('example_id')}: no token is trained")
    try:
        return SftExample(example_id=str(ex["example_id"]), token_ids=ids, assistant_mask=mask)
    except ValueError as e:
        raise MaskError(f"example {ex.get('example_id')}: {e}") from e


# ---------------------------------------------------------------------------------------------------------------------
# The loss


@dataclass
class SftLossInputs:
    logprobs: torch.Tensor  # [N] log pi(token) at the trained (assistant) positions of one microbatch
    total_tokens: int  # trained tokens in the whole step, over every microbatch and rank


def sft_loss(inp: SftLossInputs) -> torch.Tensor:
    """NLL = -(1/T) sum_t log pi(y_t) over every assistant token t of the step (T of them).

    A token mean over the whole step, not a per-example mean: each assistant token gets the same weight, as in the
    seed ("the model learned from every assistant action I kept"), and summing per-microbatch parts divided by the
    global T gives the same gradient however the examples were packed.
    """
    return -inp.logprobs.sum() / max(inp.total_tokens, 1)


# ---------------------------------------------------------------------------------------------------------------------
# One step, and held-out loss


@dataclass
class SftStepMetrics:
    loss: float
    tokens: int  # trained tokens
    examples: int
    microbatches: int
    microbatch_fill: float
    grad_norm: float
    too_long_dropped: int


def _microbatches(learner, examples: list[SftExample]) -> tuple[list, int, int, list, list]:
    max_tokens = learner.cfg.packing.max_tokens
    keep = [e for e in examples if len(e.token_ids) <= max_tokens]  # the seed excluded what did not fit 16,384
    seqs = [PackedSequence(Chain(list(e.token_ids), list(e.assistant_mask), [0.0] * len(e.token_ids), steps=1), i, "bc")
            for i, e in enumerate(keep)]
    from .memory import refuse_oversized

    for e in keep:  # an example is never split: one longer than the memory allows refuses the step, now
        refuse_oversized(len(e.token_ids), f"SFT example {e.example_id}", learner.memory)
    bins = pack([len(s.chain.tokens) for s in seqs], learner.microbatch_tokens)
    ranks = assign_to_ranks([b.tokens for b in bins], learner.ctx.world_size)
    total = sum(sum(e.assistant_mask) for e in keep)
    return [[seqs[i] for i in b.items] for b in bins], total, len(examples) - len(keep), bins, ranks


def sft_step(learner, examples: list[SftExample], lr: float) -> SftStepMetrics:
    """One optimizer step of assistant-only NLL on `examples`, packed into microbatches of at most
    `packing.max_tokens`, spread over ranks like the RL step (every rank runs the same number of slots)."""
    from .distributed import all_reduce_scalars, allreduce_adapter_grads
    from .train import _check_vocab, _dummy_microbatch

    for e in examples:
        _check_vocab(e.token_ids, learner.vocab_size)
    groups, total, dropped, bins, ranks = _microbatches(learner, examples)
    for g in learner.optimizer.param_groups:
        g["lr"] = lr
    mine = ranks[learner.ctx.rank]
    slots = max(len(r) for r in ranks) if ranks else 0
    learner.optimizer.zero_grad(set_to_none=True)
    loss_sum = 0.0
    for slot in range(slots):
        mb = assemble(groups[mine[slot]]) if slot < len(mine) else _dummy_microbatch()
        logp = learner.token_logprobs(mb)
        if logp.dim() == 0:  # a dummy keeps FSDP's collectives in step
            logp.backward()
            continue
        loss = sft_loss(SftLossInputs(logp, total))
        loss.backward()
        loss_sum += float(loss.detach())
    allreduce_adapter_grads(learner.adapter_params, learner.ctx)
    grad_norm = float(torch.nn.utils.clip_grad_norm_(learner.adapter_params, learner.cfg.optim.max_grad_norm))
    if total:
        learner.optimizer.step()
    learner.optimizer.zero_grad(set_to_none=True)
    (loss_all,) = all_reduce_scalars([loss_sum], learner.ctx)
    return SftStepMetrics(loss=loss_all, tokens=total, examples=len(examples) - dropped, microbatches=len(bins),
                          microbatch_fill=fill_ratio(bins, learner.microbatch_tokens) if bins else 0.0,
                          grad_norm=grad_norm if math.isfinite(grad_norm) else 0.0, too_long_dropped=dropped)


@torch.no_grad()
def sft_eval(learner, examples: list[SftExample]) -> tuple[float, int]:
    """Mean assistant-token NLL of `examples` under the current adapter (no gradient): the held-out loss."""
    from .distributed import all_reduce_scalars
    from .train import _dummy_microbatch

    groups, total, _, _, ranks = _microbatches(learner, examples)
    mine = ranks[learner.ctx.rank]
    slots = max(len(r) for r in ranks) if ranks else 0
    nll = 0.0
    for slot in range(slots):
        mb = assemble(groups[mine[slot]]) if slot < len(mine) else _dummy_microbatch()
        logp = learner.token_logprobs(mb)
        if logp.dim():
            nll -= float(logp.double().sum())
    (nll,) = all_reduce_scalars([nll], learner.ctx)
    return (nll / total if total else 0.0), total


def lr_at(step: int, total: int, peak: float, warmup: int) -> float:
    """The learning rate at optimizer step `step` (0-based) of `total`: linear warm-up to `peak` over `warmup` steps,
    lr = peak (step + 1) / (warmup + 1), then cosine decay, lr = peak (1 + cos(pi t)) / 2 with t = (step - warmup) /
    (total - warmup - 1), floored at 1 % of the peak so the last step still moves (a zero rate is refused anyway)."""
    if step < warmup:
        return peak * (step + 1) / (warmup + 1)
    t = 0.0 if total - warmup <= 1 else (step - warmup) / (total - warmup - 1)
    return max(peak * 0.5 * (1 + math.cos(math.pi * t)), peak * 0.01)


@dataclass
class SftEpochResult:
    steps: int
    train_loss: float  # mean of the steps' losses
    held_out_loss: float | None
    too_long_dropped: int


def epoch_order(n: int, seed: int, epoch: int) -> list[int]:
    """The order examples are visited in epoch `epoch`: a shuffle fixed by (seed, epoch), so a retried epoch trains
    exactly the same batches and a resumed run the same sequence of epochs."""
    import random

    order = list(range(n))
    random.Random(seed * 1_000_003 + epoch).shuffle(order)
    return order


def sft_epoch(learner, train: list[SftExample], heldout: list[SftExample], epoch: int, epochs: int, lr: float,
              warmup_steps: int, batch_examples: int, seed: int, on_step=None) -> SftEpochResult:
    """One epoch: ceil(n / batch_examples) optimizer steps over the shuffled train examples, each at lr_at(global
    step), then the held-out loss. Every step is a new policy version (the adapter changed), as after an RL step.
    `on_step(done, of, mean_loss)` is called after each step (progress for the caller's heartbeat)."""
    per_epoch = math.ceil(len(train) / batch_examples)
    total = per_epoch * epochs
    order = epoch_order(len(train), seed, epoch)
    loss_sum, dropped = 0.0, 0
    for s in range(per_epoch):
        batch = [train[i] for i in order[s * batch_examples:(s + 1) * batch_examples]]
        m = sft_step(learner, batch, lr_at((epoch - 1) * per_epoch + s, total, lr, warmup_steps))
        learner.version += 1
        loss_sum += m.loss
        dropped += m.too_long_dropped
        if on_step is not None:
            on_step(s + 1, per_epoch, loss_sum / (s + 1))
    held = sft_eval(learner, heldout)[0] if heldout else None
    return SftEpochResult(steps=per_epoch, train_loss=loss_sum / per_epoch, held_out_loss=held, too_long_dropped=dropped)


def read_examples(path: Path) -> list[SftExample]:
    """A tokens JSONL file (`debugrl sft build`'s train/heldout.tokens.jsonl), every line validated."""
    if not path.is_file():
        raise FileNotFoundError(f"SFT examples file {path} does not exist")
    out = [check_example(json.loads(line)) for line in path.read_text().splitlines() if line.strip()]
    if not out:
        raise MaskError(f"{path} holds no examples (an empty corpus)")
    return out


# ---------------------------------------------------------------------------------------------------------------------
# `python -m debugrl_native.learner.sft tokenize --corpus DIR`


def tokenize_corpus(corpus: Path, calls_only: bool = True, tokenizer=None) -> dict:
    """Write <corpus>/{train,heldout}.tokens.jsonl from <corpus>/examples.jsonl and tools.json.

    Stored token ids (from a policy server that returned them) are reused as they are; text-only examples are rendered
    with SmolLM2's chat template. Either way every example is checked before anything is written."""
    if tokenizer is None:
        from ..inference.models import load_tokenizer

        tokenizer = load_tokenizer()
    tools = json.loads((corpus / "tools.json").read_text())
    rows = [json.loads(line) for line in (corpus / "examples.jsonl").read_text().splitlines() if line.strip()]
    if not rows:
        raise MaskError(f"{corpus}/examples.jsonl holds no examples (an empty corpus)")
    out: dict[str, list[dict]] = {"train": [], "heldout": []}
    sources = {"stored": 0, "rendered": 0}
    for r in rows:
        stored = r.get("storedTokens")
        if stored:
            ex = {"example_id": r["exampleId"], "token_ids": stored["tokenIds"], "assistant_mask": stored["assistantMask"]}
            sources["stored"] += 1
        else:
            ids, mask = render_with_mask(tokenizer, r["messages"], tools, r["trainFromMessage"], calls_only)
            ex = {"example_id": r["exampleId"], "token_ids": ids, "assistant_mask": mask}
            sources["rendered"] += 1
        check_example(ex)
        out["heldout" if r["heldOut"] else "train"].append(ex | {"token_source": "stored" if stored else "rendered"})
    for part, exs in out.items():
        tmp = corpus / f".{part}.tokens.jsonl.tmp"
        tmp.write_text("".join(json.dumps(e) + "\n" for e in exs))
        os.replace(tmp, corpus / f"{part}.tokens.jsonl")
    return {"train": len(out["train"]), "heldout": len(out["heldout"]), **sources,
            "train_tokens": sum(len(e["token_ids"]) for e in out["train"]),
            "trained_tokens": sum(sum(e["assistant_mask"]) for e in out["train"])}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="SFT corpus tools")
    sub = parser.add_subparsers(dest="cmd", required=True)
    tok = sub.add_parser("tokenize", help="render a corpus folder's examples into token ids with assistant masks")
    tok.add_argument("--corpus", type=Path, required=True)
    tok.add_argument("--keep-assistant-text", action="store_true",
                     help="train the assistant's free text too (default: only its call, as the embedded server writes)")
    args = parser.parse_args(argv)
    try:
        summary = tokenize_corpus(args.corpus, calls_only=not args.keep_assistant_text)
    except (MaskError, FileNotFoundError) as e:
        print(f"sft tokenize: {e}", file=sys.stderr)
        sys.exit(2)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
