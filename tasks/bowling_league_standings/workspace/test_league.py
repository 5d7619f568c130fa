import pytest

from awards import high_game, most_improved, most_strikes, recap_line
from league import League
from season import round_robin, season_table
from notation import NotationError, parse_game
from scoring import frame_scores, game_score, strikes

PERFECT = "X X X X X X X X X XXX"
SPARES = "5/ 5/ 5/ 5/ 5/ 5/ 5/ 5/ 5/ 5/5"
OPEN = "9- 9- 9- 9- 9- 9- 9- 9- 9- 9-"
MIXED = "X 7/ 9- X -8 8/ -6 X X X81"


def test_parse_sheet():
    assert parse_game(MIXED) == [10, 7, 3, 9, 0, 10, 0, 8, 8, 2, 0, 6, 10, 10, 10, 8, 1]
    with pytest.raises(NotationError):
        parse_game("X 7/ 9-")
    with pytest.raises(NotationError):
        parse_game("X 7/ 9- X -8 8/ -6 X X 99")


def test_open_and_spare_games():
    assert game_score(parse_game(OPEN)) == 90
    assert game_score(parse_game(SPARES)) == 150


def test_perfect_game():
    assert game_score(parse_game(PERFECT)) == 300


def test_mixed_game_frame_by_frame():
    assert frame_scores(parse_game(MIXED)) == [20, 39, 48, 66, 74, 84, 90, 120, 148, 167]


def test_strike_count():
    assert strikes(parse_game(MIXED)) == 5
    assert strikes(parse_game(PERFECT)) == 12


def test_handicap_from_average():
    league = League("Tuesday Mixed")
    league.add("Ria", "Pin Pals", established_average=150)
    assert league.bowlers["Ria"].handicap() == 63
    league.bowlers["Ria"].games = [180, 200, 220]
    assert league.bowlers["Ria"].handicap() == 18


def test_league_night_points():
    league = League("Tuesday Mixed")
    league.add("Ria", "Pin Pals", established_average=190)
    league.add("Sam", "Gutter Kings", established_average=120)
    totals = league.record_night("Pin Pals", "Gutter Kings", {
        "Ria": [MIXED, SPARES, OPEN],
        "Sam": [OPEN, OPEN, SPARES],
    })
    # handicaps 27 and 90
    assert totals == {"Pin Pals": [194, 177, 117], "Gutter Kings": [180, 180, 240]}
    assert league.standings() == [("Gutter Kings", 3), ("Pin Pals", 1)]
    assert (league.bowlers["Ria"].high_game(), league.bowlers["Ria"].last_series()) == (167, 407)


def test_awards_and_recap():
    sheets = {"Ria": [MIXED, OPEN], "Sam": [SPARES, PERFECT]}
    assert high_game(sheets) == ("Sam", 300)
    assert most_strikes(sheets) == (["Sam"], 12)
    assert recap_line("Ria", MIXED) == "Ria      20  39  48  66  74  84  90 120 148 167"


def test_round_robin_schedule():
    weeks = round_robin(["Aces", "Bolts", "Comets", "Dukes", "Eagles"])
    assert len(weeks) == 5
    pairs = [frozenset(p) for week in weeks for p in week]
    assert len(pairs) == len(set(pairs)) == 10
    assert all(len(week) == 2 for week in weeks)


def test_season_table_uses_scores():
    league = League("Tuesday Mixed")
    league.add("Ria", "Pin Pals", established_average=200)
    league.add("Sam", "Gutter Kings", established_average=200)
    league.record_night("Pin Pals", "Gutter Kings", {"Ria": [MIXED, MIXED, MIXED], "Sam": [SPARES, SPARES, PERFECT]})
    assert season_table(league) == ["1. Gutter Kings 2 pts (Sam 200)", "2. Pin Pals 2 pts (Ria 167)"]
    assert most_improved(league) is None
    league.bowlers["Ria"].established_average = 140
    assert most_improved(league) == ("Ria", 27)
