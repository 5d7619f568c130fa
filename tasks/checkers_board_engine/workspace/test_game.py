import pytest

from board import Board, BoardError
from game import Game
from notation import NotationError, parse_square, square_name
from rules import IllegalMove


def test_square_names():
    assert square_name(0, 0) == "a8"
    assert parse_square("h1") == (7, 7)
    with pytest.raises(NotationError):
        parse_square("z9")


def test_parse_render_round_trip():
    text = "\n".join([".b......"] + ["........"] * 6 + ["......w."])
    assert Board.parse(text).render() == text


def test_bad_board_shape():
    with pytest.raises(BoardError):
        Board([["."] * 8] * 7)


def test_empty_board_holds_one_piece():
    board = Board.empty()
    board.put(3, 4, "b")
    assert board.squares_of("b") == [(3, 4)]


def test_standard_setup_counts():
    game = Game()
    assert game.score() == {"b": 12, "w": 12}
    assert game.board.get(0, 1) == "b" and game.board.get(0, 0) == "."


def test_opening_options():
    assert Game().options() == ["b6-a5", "b6-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5"]


def test_capture_is_forced_and_removes_the_piece():
    text = "\n".join(["........", "........", "...b....", "....w...", "........", "........", "........", "........"])
    game = Game(Board.parse(text), to_move="b")
    assert game.options() == ["d6xf4"]
    assert game.play("d6xf4") == "d6xf4"
    assert game.score() == {"b": 1, "w": 0}
    assert game.winner() == "b"


def test_takeback_restores_the_position():
    game = Game()
    start = game.board.render()
    game.play("b6-c5")
    game.takeback()
    assert game.board.render() == start
    assert game.to_move == "b"


def test_illegal_move_leaves_board_alone():
    game = Game()
    start = game.board.render()
    with pytest.raises(IllegalMove):
        game.play("b6-b5")
    assert game.board.render() == start


def test_promotion_to_king():
    text = "\n".join(["........", "....w...", "........", "........", "........", "........", "........", "........"])
    game = Game(Board.parse(text), to_move="w")
    game.play("e7-d8")
    assert game.board.get(0, 3) == "W"
    assert game.transcript() == ["e7-d8"]


def test_engine_prefers_a_capture_sequence():
    from engine import best_move

    text = "\n".join(["........", "........", "...b....", "....w...", "........", "..w.....", "........", "........"])
    game = Game(Board.parse(text), to_move="b")
    assert best_move(game.board, "b", depth=2) == "d6xf4"
    assert game.board.get(2, 3) == "b"


def test_engine_search_does_not_touch_the_game():
    from engine import best_move

    game = Game()
    start = game.board.render()
    best_move(game.board, "b", depth=2)
    assert game.board.render() == start
