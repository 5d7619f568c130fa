import pytest

from cycle import describe, pick_and_place
from geometry import Point, path_length, subdivide
from grippers import GRIPPERS, PayloadTooHeavy
from paths import PathLibrary
from throughput import shift_plan
from program import to_program
from safety import CELL, EnvelopeViolation

HOME = Point(0, -300, 400)
DROP = Point(350, 200, 60)
FIXTURE_IN = [Point(-200, 0, 300), Point(-200, 200, 300), Point(-200, 200, 80)]


def library():
    lib = PathLibrary()
    lib.teach("fixture-a", list(FIXTURE_IN), speed_mm_s=200)
    return lib


def test_subdivide_limits_step():
    pts = subdivide([Point(0, 0, 10), Point(0, 0, 110)], 40)
    assert len(pts) == 4 and pts[-1] == Point(0, 0, 110)


def test_reversed_path_runs_backwards():
    lib = library()
    back = lib.get("fixture-a").reversed()
    assert back.start() == FIXTURE_IN[-1] and back.end() == FIXTURE_IN[0]


def test_reversing_leaves_the_taught_path_alone():
    lib = library()
    lib.get("fixture-a").reversed()
    assert lib.get("fixture-a").points == FIXTURE_IN


def test_cycle_grips_at_the_bottom_of_the_approach():
    cycle = pick_and_place(library(), "fixture-a", DROP, HOME)
    grip = next(m for m in cycle.moves if m.kind == "grip")
    assert grip.points == [Point(-200, 200, 80)]
    assert cycle.moves[0].points[0] == Point(-200, 0, 300)


def test_two_cycles_in_a_row_are_identical():
    lib = library()
    first = pick_and_place(lib, "fixture-a", DROP, HOME)
    second = pick_and_place(lib, "fixture-a", DROP, HOME)
    assert to_program(second) == to_program(first)
    assert second.seconds() == first.seconds() == 4.9
    assert describe(second) == "grip 1, release 1, 6 moves, 4.90 s"
    assert lib.names() == ["fixture-a"] and lib.get("fixture-a").with_speed(100).seconds() == 4.2


def test_envelope():
    with pytest.raises(EnvelopeViolation):
        CELL.check(Point(0, 0, 0))
    assert path_length(FIXTURE_IN) == 420


def test_program_text():
    lines = to_program(pick_and_place(library(), "fixture-a", DROP, HOME, max_step=1000))
    assert lines[0] == "PROC fixture_a_to_drop"
    assert lines[1:4] == ["  MoveJ [-200.0,200.0,300.0]", "  MoveJ [-200.0,200.0,80.0]", "  GripClose"]
    assert lines[-1] == "ENDPROC"


def test_gripper_offsets_and_payload():
    vac = GRIPPERS["vacuum"]
    assert vac.flange_for(Point(10, 20, 30)) == Point(10, 20, 120)
    with pytest.raises(PayloadTooHeavy):
        vac.check_payload(900)
    GRIPPERS["two-finger"].check_payload(900)


def test_shift_plan_from_the_cycle_time():
    cycle = pick_and_place(library(), "fixture-a", DROP, HOME)
    assert shift_plan(cycle.seconds(), 5000) == {"rate_per_hour": 734, "hours": 6.81, "shifts": 1, "bottleneck": "arm"}
    assert shift_plan(cycle.seconds(), 5000, conveyor_gap_s=6)["bottleneck"] == "conveyor"
