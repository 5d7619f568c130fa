"""Synthetic multi-turn trajectories for tests and benchmarks (no tokenizer, no environment).

Each trajectory has `turns` steps that obey the prefix property (step k+1's prompt = step k's prompt + completion +
a few "tool output" tokens), so one trajectory is one chain. The reward is the fraction of completion tokens that
fall in a "good" half of the vocabulary: a signal GRPO can learn quickly on a tiny random model.
"""

from __future__ import annotations

import random

import torch

from .protocol import Group, SftExample, Step, TrainBatch, Trajectory


def good_token(token: int, vocab_size: int) -> bool:
    return token < vocab_size // 2


def synthetic_batch(vocab_size: int, groups: int = 2, group_size: int = 4, turns: int = 2, prompt_len: int = 6,
                    completion_len: tuple[int, int] = (3, 8), tool_len: int = 2, sft_examples: int = 0,
                    policy_version: int = 0, seed: int = 0) -> TrainBatch:
    rng = random.Random(seed)
    out_groups = []
    for g in range(groups):
        prompt = [rng.randrange(vocab_size) for _ in range(prompt_len)]  # one task per group
        trajs = []
        for t in range(group_size):
            steps, context, good, total = [], list(prompt), 0, 0
            for _ in range(turns):
                completion = [rng.randrange(vocab_size) for _ in range(rng.randint(*completion_len))]
                steps.append(Step(prompt_ids=list(context), completion_ids=completion,
                                  completion_logprobs=[-1.0] * len(completion), policy_version=policy_version))
                good += sum(good_token(x, vocab_size) for x in completion)
                total += len(completion)
                context += completion + [rng.randrange(vocab_size) for _ in range(tool_len)]
            trajs.append(Trajectory(trajectory_id=f"g{g}-t{t}", reward=good / total, steps=steps))
        out_groups.append(Group(group_id=f"g{g}", trajectories=trajs))
    sft = []
    for x in range(sft_examples):
        n = rng.randint(8, 16)
        ids = [rng.randrange(vocab_size) for _ in range(n)]
        sft.append(SftExample(example_id=f"sft{x}", token_ids=ids, assistant_mask=[i >= n // 2 for i in range(n)]))
    return TrainBatch(groups=out_groups, sft_examples=sft)


@torch.no_grad()
def fill_rollout_logprobs(model: torch.nn.Module, batch: TrainBatch) -> TrainBatch:
    """Replace each step's stored logprobs by the given model's own (what an inference server would have reported)."""
    groups = []
    for group in batch.groups:
        trajs = []
        for traj in group.trajectories:
            steps = []
            for s in traj.steps:
                ids = torch.tensor([list(s.prompt_ids) + list(s.completion_ids)])
                logits = model(input_ids=ids, use_cache=False).logits[0].float()  # [S, V]
                n = len(s.prompt_ids)
                lp = torch.log_softmax(logits[n - 1:-1], -1).gather(-1, ids[0, n:, None]).squeeze(-1)
                steps.append(s.model_copy(update={"completion_logprobs": [min(0.0, x) for x in lp.tolist()]}))
            trajs.append(traj.model_copy(update={"steps": steps}))
        groups.append(group.model_copy(update={"trajectories": trajs}))
    return batch.model_copy(update={"groups": groups})
