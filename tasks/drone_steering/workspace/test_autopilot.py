import pytest

from autopilot import fly, seek, telemetry
from drone import Drone
from vector import Vec2


def cruising():
    return Drone("d1", Vec2(0.0, 0.0), Vec2(6.0, 8.0))


def test_heading_is_a_unit_vector():
    h = cruising().heading()
    assert (h.x, h.y) == pytest.approx((0.6, 0.8))


def test_seek_accelerates_toward_target():
    d = Drone("d2", Vec2(0.0, 0.0), Vec2(0.0, 0.0))
    a = seek(d, Vec2(10.0, 0.0))
    assert (a.x, a.y) == pytest.approx((4.0, 0.0))


def test_telemetry_line():
    assert telemetry(cruising()) == "d1 at (0.0, 0.0) heading 53 deg, 10.0 m/s"


def test_speed_is_kept_after_reporting_telemetry():
    d = cruising()
    telemetry(d)
    d.step(1.0, Vec2(0.0, 0.0))
    assert (d.pos.x, d.pos.y) == pytest.approx((6.0, 8.0)), d.pos


def test_logged_flight_matches_unlogged_flight():
    quiet, logged = cruising(), cruising()
    fly(quiet, Vec2(100.0, 0.0), seconds=3)
    log = []
    fly(logged, Vec2(100.0, 0.0), seconds=3, log=log)
    assert len(log) == 6
    assert (logged.pos.x, logged.pos.y) == pytest.approx((quiet.pos.x, quiet.pos.y)), log[-1]


def test_mission_visits_waypoints_in_order():
    from mission import Geofence, Mission

    d = Drone("d3", Vec2(0.0, 0.0), Vec2(0.0, 0.0))
    m = Mission([Vec2(30.0, 0.0), Vec2(30.0, 30.0)], fence=Geofence(Vec2(-50.0, -50.0), Vec2(80.0, 80.0)))
    m.run(d)
    assert len(m.reached) == 2 and m.reached[0] < m.reached[1]
    assert (d.pos - Vec2(30.0, 30.0)).length() <= 2.0
