"""sampling.draw: one uniform through the inverse CDF samples the categorical distribution, never a zero-probability
index, and the same generator seed gives the same draws."""

from __future__ import annotations

import torch

from debugrl_native.inference.sampling import SamplingParams, choose_token, draw


def test_draw_follows_the_probabilities_and_never_picks_a_zero():
    probs = torch.tensor([0.1, 0.0, 0.6, 0.3, 0.0])
    gen = torch.Generator().manual_seed(0)
    counts = torch.bincount(torch.tensor([draw(probs, gen) for _ in range(20_000)]), minlength=5).double() / 20_000
    assert counts[1] == 0 and counts[4] == 0
    # 20,000 draws: the standard error of a share near 0.5 is 0.0035; 0.015 is over four of them.
    assert torch.allclose(counts, probs.double(), atol=0.015), counts
    assert draw(torch.tensor([0.0, 0.0, 2.5]), gen) == 2  # unnormalised weights are fine


def test_draws_repeat_under_the_same_seed_and_differ_across_seeds():
    logprobs = torch.log_softmax(torch.randn(49_152, generator=torch.Generator().manual_seed(1)), -1)

    def tokens(seed: int) -> list[int]:
        gen = torch.Generator().manual_seed(seed)
        return [choose_token(logprobs, SamplingParams(1.0, top_p=0.9), gen) for _ in range(20)]

    assert tokens(5) == tokens(5)
    assert tokens(5) != tokens(6)
