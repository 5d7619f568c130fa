import pytest

from interlocking import Interlocking, Route, RouteRefused
from movements import TrainMovement
from track import TrackLayout


def station():
    layout = TrackLayout()
    for name, length in [("A1", 400), ("A2", 300), ("P1", 250), ("P2", 250), ("B1", 500), ("B2", 500), ("B3", 500)]:
        layout.add_block(name, length)
    for a, b in [("A1", "A2"), ("A2", "P1"), ("A2", "P2"), ("P1", "B1"), ("P2", "B1"), ("B1", "B2"), ("B2", "B3")]:
        layout.link(a, b)
    layout.add_points("X1", normal_to="P1", reverse_to="P2")
    ixl = Interlocking(layout)
    ixl.add_signal("S1", "A2")
    ixl.add_signal("S2", "B1")
    ixl.add_signal("S3", "B1")
    ixl.add_route(Route("S1-P1", "S1", ("A2", "P1"), {"X1": "normal"}))
    ixl.add_route(Route("S1-P2", "S1", ("A2", "P2"), {"X1": "reverse"}))
    ixl.add_route(Route("S2-B", "S2", ("B1", "B2")))
    ixl.add_route(Route("S3-B", "S3", ("B1",)))
    return ixl


def test_setting_a_route_clears_its_signal_and_throws_points():
    ixl = station()
    assert ixl.request("S1-P2") == "green"
    assert ixl.layout.points["X1"].leads_to() == "P2"
    assert ixl.signals["S1"].route == "S1-P2"


def test_conflicting_route_is_refused():
    ixl = station()
    ixl.request("S1-P1")
    with pytest.raises(RouteRefused):
        ixl.request("S1-P2")


def test_occupied_block_refuses_route():
    ixl = station()
    ixl.layout.occupy("B2")
    with pytest.raises(RouteRefused):
        ixl.request("S2-B")


def test_other_signals_stay_at_danger():
    ixl = station()
    ixl.request("S1-P1")
    assert ixl.board() == {"S1": "green", "S2": "red", "S3": "red"}


def test_aspect_reflects_blocks_ahead():
    ixl = station()
    ixl.layout.occupy("B3")
    assert ixl.request("S2-B") == "yellow"
    ixl.release("S2-B")
    ixl.layout.occupy("B3", False)
    assert ixl.request("S3-B") == "green"
    assert ixl.signals["S2"].aspect == "red"


def test_release_only_returns_own_signal_to_danger():
    ixl = station()
    ixl.request("S1-P1")
    ixl.request("S2-B")
    ixl.release("S2-B")
    assert ixl.board() == {"S1": "green", "S2": "red", "S3": "red"}


def test_reset_then_independent_signals():
    ixl = station()
    ixl.request("S1-P1")
    ixl.reset_all()
    assert ixl.locks == {}
    ixl.request("S2-B")
    assert ixl.board() == {"S1": "red", "S2": "yellow", "S3": "red"}
    assert ixl.signals["S2"].state["cleared_count"] == 1


def test_train_passes_and_releases_route_behind_it():
    ixl = station()
    ixl.request("S1-P2")
    ixl.request("S2-B")
    train = TrainMovement(ixl, "1A05", "S1-P2", start="A1")
    assert train.step() == "A2"
    assert ixl.signals["S1"].aspect == "red"
    assert train.step() == "P2"
    assert "A2" not in ixl.locks
    assert train.finish() == ["A1", "A2", "P2"]
    assert ixl.locks == {"B1": "S2-B", "B2": "S2-B"}
    assert ixl.board() == {"S1": "red", "S2": "yellow", "S3": "red"}
