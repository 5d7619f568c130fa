"""Chains, packing and rank balance invariants; packed sequences do not see each other."""

import random

import pytest
import torch

from debugrl_native.learner.config import TinyQwen3MoeSource
from debugrl_native.learner.models import build_qwen3_moe
from debugrl_native.learner.packing import (
    Chain,
    PackedSequence,
    StepTokens,
    assemble,
    assign_to_ranks,
    build_chains,
    lower_bound_bins,
    pack,
    pack_first_fit_decreasing,
)


def test_prefix_property_makes_one_chain_with_assistant_only_mask():
    steps = [
        StepTokens([1, 2], [3, 4], [-0.1, -0.2]),
        StepTokens([1, 2, 3, 4, 9], [5], [-0.3]),  # extends: [1,2]+[3,4] then tool token 9
    ]
    (chain,) = build_chains(steps)
    assert chain.tokens == [1, 2, 3, 4, 9, 5]
    assert chain.loss_mask == [False, False, True, True, False, True]
    assert chain.rollout_logprobs == [0.0, 0.0, -0.1, -0.2, 0.0, -0.3]
    assert chain.steps == 2


def test_broken_prefix_starts_a_new_chain():
    # the second prompt re-templates the history (token 3 became 7): detected, not assumed
    steps = [StepTokens([1, 2], [3], [-0.1]), StepTokens([1, 2, 7, 8], [5], [-0.3])]
    chains = build_chains(steps)
    assert [c.tokens for c in chains] == [[1, 2, 3], [1, 2, 7, 8, 5]]


def test_ffd_respects_capacity_and_keeps_every_item_once():
    rng = random.Random(0)
    lengths = [rng.randint(1, 100) for _ in range(200)]
    bins = pack_first_fit_decreasing(lengths, 128)
    assert all(b.tokens <= 128 for b in bins)
    assert sorted(i for b in bins for i in b.items) == list(range(200))
    assert all(b.tokens == sum(lengths[i] for i in b.items) for b in bins)
    with pytest.raises(ValueError, match="exceed"):
        pack_first_fit_decreasing([129], 128)


def test_lower_bound_hand_cases():
    # four items over half of 10: no two share a bin -> 4, although ceil(24 / 10) = 3
    assert lower_bound_bins([6, 6, 6, 6], 10) == 4
    # 24 tokens in bins of 12 -> at least 2 (k = 0); no threshold k proves more
    assert lower_bound_bins([6, 5, 4, 4, 3, 2], 12) == 2
    assert lower_bound_bins([], 12) == 0


def test_pack_finds_the_packing_ffd_misses():
    lengths = [6, 5, 4, 4, 3, 2]
    # FFD: 6+5 (4 does not fit), 4+4+3, then 2 alone -> 3 bins; [6, 4, 2] and [5, 4, 3] fill two exactly
    assert len(pack_first_fit_decreasing(lengths, 12)) == 3
    bins = pack(lengths, 12)
    assert sorted(sorted(lengths[i] for i in b.items) for b in bins) == [[2, 4, 6], [3, 4, 5]]
    assert [b.tokens for b in bins] == [12, 12]
    assert len(pack(lengths, 12, search_budget=0)) == 3  # no search: FFD's packing stands


def test_pack_invariants_on_random_mixes():
    rng = random.Random(1)
    improved = 0
    for _ in range(60):
        lengths = [rng.randint(20, 70) for _ in range(rng.randint(5, 40))]
        ffd, bins = pack_first_fit_decreasing(lengths, 128), pack(lengths, 128)
        assert all(b.tokens <= 128 and b.tokens == sum(lengths[i] for i in b.items) for b in bins)
        assert sorted(i for b in bins for i in b.items) == list(range(len(lengths)))  # each item once, never cut
        assert lower_bound_bins(lengths, 128) <= len(bins) <= len(ffd)
        assert pack(lengths, 128) == bins  # deterministic: every rank computes the same packing on its own
        improved += len(bins) < len(ffd)
    assert improved > 0  # the mix is hard enough that the search matters


@pytest.mark.parametrize("n,world", [(7, 2), (4, 3), (9, 4), (1, 2), (0, 2)])
def test_rank_counts_differ_by_at_most_one(n, world):
    loads = [1000 - 37 * i for i in range(n)]
    ranks = assign_to_ranks(loads, world)
    counts = [len(r) for r in ranks]
    assert max(counts) - min(counts) <= 1
    assert sorted(i for r in ranks for i in r) == list(range(n))


def test_largest_first_to_least_loaded_hand_case():
    # loads [10, 9, 8, 1] on 2 ranks: 10 -> r0; 9 -> r1; 8 -> r1 (9 < 10); 1 -> r0 (10 < 17) -> r0=11, r1=17
    # without the count rule 1 would still go to r0; counts 2/2
    assert assign_to_ranks([10, 9, 8, 1], 2) == [[0, 3], [1, 2]]
    # n=3 over 3 ranks but one huge: each rank gets exactly one, never two on the light rank
    assert sorted(len(r) for r in assign_to_ranks([100, 1, 1], 3)) == [1, 1, 1]


def test_assemble_positions_boundaries_and_loss_positions():
    a = Chain([5, 6, 7], [False, True, True], [0.0, -0.5, -0.6])
    b = Chain([8, 9], [False, True], [0.0, -0.9])
    mb = assemble([PackedSequence(a, 0, "rl"), PackedSequence(b, 3, "bc")])
    assert mb.input_ids.tolist() == [[5, 6, 7, 8, 9]]
    assert mb.position_ids.tolist() == [[0, 1, 2, 0, 1]]
    assert mb.cu_seqlens.tolist() == [0, 3, 5]
    assert mb.loss_positions.tolist() == [1, 2, 4]
    assert mb.owner.tolist() == [0, 0, 3]
    assert mb.is_bc.tolist() == [False, False, True]


def test_packed_sequences_do_not_attend_to_each_other():
    model = build_qwen3_moe(TinyQwen3MoeSource(num_hidden_layers=1)).eval()
    a = Chain([3, 4, 5, 6], [False] * 4, [0.0] * 4)
    b = Chain([7, 8, 9], [False] * 3, [0.0] * 3)
    mb = assemble([PackedSequence(a, 0, "rl"), PackedSequence(b, 1, "rl")])
    with torch.no_grad():
        packed = model(input_ids=mb.input_ids, position_ids=mb.position_ids).logits[0]
        alone_a = model(input_ids=torch.tensor([a.tokens])).logits[0]
        alone_b = model(input_ids=torch.tensor([b.tokens])).logits[0]
    torch.testing.assert_close(packed[:4], alone_a, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(packed[4:], alone_b, rtol=1e-4, atol=1e-4)
    # and the check can fail: the same row without restarted positions lets b see a
    with torch.no_grad():
        leaky = model(input_ids=mb.input_ids).logits[0]
    assert not torch.allclose(leaky[4:], alone_b, atol=1e-4)
