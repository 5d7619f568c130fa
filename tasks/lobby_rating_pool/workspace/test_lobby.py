import threading

import pytest

from lobby import Lobby
from matches import InvalidMatch
from ratings import expected_score, updated
from standings import render, table

ROUND_1 = [
    {"id": "r1b1", "white": "ana", "black": "ben", "result": "white"},
    {"id": "r1b2", "white": "cai", "black": "dee", "result": "draw"},
    {"id": "r1b3", "white": "eve", "black": "fay", "result": "black"},
]


def in_thread(fn, *args):
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("value", fn(*args)), daemon=True)
    thread.start()
    thread.join(timeout=2)
    assert not thread.is_alive(), f"{fn.__name__} did not finish within 2 s"
    return out["value"]


def test_elo_updates():
    assert expected_score(1500, 1500) == 0.5
    assert updated(1500, 1500, 1, games_played=0) == 1524
    assert updated(1500, 1500, 1, games_played=30) == 1516
    with pytest.raises(ValueError):
        updated(1500, 1500, 2, 0)


def test_recorded_match_moves_both_ratings():
    lobby = Lobby()
    assert lobby.record(ROUND_1[0])
    assert (lobby.rating("ana"), lobby.rating("ben")) == (1524, 1476)
    assert not lobby.record(ROUND_1[0])
    assert lobby.games == {"ana": 1, "ben": 1}
    assert lobby.close() == []


def test_bad_reports_are_rejected():
    lobby = Lobby()
    with pytest.raises(InvalidMatch):
        lobby.record({"id": "x", "white": "ana", "black": "ana", "result": "draw"})
    with pytest.raises(InvalidMatch):
        lobby.record({"id": "y", "white": "ana", "black": "ben"})
    assert lobby.history == []


def test_reports_from_many_threads_all_apply():
    lobby = Lobby()
    threads = [threading.Thread(target=lobby.record, args=(r,), daemon=True) for r in ROUND_1]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=2)
    assert sorted(lobby.history) == ["r1b1", "r1b2", "r1b3"]


def test_tournament_round_settles_in_board_order():
    lobby = Lobby()
    assert in_thread(lobby.settle_round, ROUND_1) == [True, True, True]
    assert lobby.history == ["r1b1", "r1b2", "r1b3"]
    assert table(lobby)[0] == (1, "ana", 1524, 1)


def test_standings_share_ranks_on_equal_ratings():
    lobby = Lobby()
    for record in ROUND_1:
        lobby.record(record)
    rows = table(lobby)
    assert [r[0] for r in rows] == [1, 1, 3, 3, 5, 5]
    assert render(rows[:1]) == "  1. ana         1524 (1)"
