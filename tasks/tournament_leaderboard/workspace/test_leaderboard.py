import pytest

from prizes import award, podium_text
from rankings import standings
from submissions import Submission, best_entries, parse_feed


def subs(*rows):
    return [Submission(p, s, t) for p, s, t in rows]


def test_best_score_counts_and_first_time_wins_ties():
    entries = best_entries(subs(("ana", 50, 10), ("ana", 80, 20), ("ana", 80, 30), ("ana", 60, 40)))
    assert [(e.best, e.reached_at) for e in entries] == [(80, 20)]
    with pytest.raises(ValueError):
        best_entries(subs(("bo", -1, 1)))


def test_distinct_scores_rank_in_order():
    table = standings(best_entries(subs(("ana", 10, 1), ("bo", 30, 1), ("cy", 20, 1))))
    assert [(s.rank, s.player) for s in table] == [(1, "bo"), (2, "cy"), (3, "ana")]


def test_tied_players_share_a_rank():
    table = standings(best_entries(subs(("ana", 90, 1), ("bo", 70, 1), ("cy", 70, 2))))
    assert [s.rank for s in table] == [1, 2, 2]


def test_rank_after_a_tie_skips():
    table = standings(best_entries(subs(("ana", 90, 1), ("bo", 70, 1), ("cy", 70, 2), ("di", 40, 3))))
    assert [(s.player, s.rank) for s in table][-1] == ("di", 4)


def test_prizes_go_to_top_three_ranks_only():
    payout = award(subs(("ana", 90, 1), ("bo", 90, 2), ("cy", 70, 3), ("di", 40, 4), ("ed", 10, 5)))
    assert payout == {"ana": 50000, "bo": 50000, "cy": 10000}, f"paid {sum(payout.values())} cents to {sorted(payout)}"


def test_podium_text():
    assert podium_text(subs(("ana", 5, 1))) == "1. ana (5)"


def test_feed_parsing():
    feed = "# round 3\nana 40 @12\n\nbo 55 @30\n"
    assert parse_feed(feed) == [Submission("ana", 40, 12), Submission("bo", 55, 30)]
    with pytest.raises(ValueError, match="feed line 2"):
        parse_feed("ana 40 @12\nbo fifty @30")
