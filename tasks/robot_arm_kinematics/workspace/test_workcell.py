import pytest

from arm import Arm, JointLimit
from geometry import forward, two_link_ik
from trajectory import Trajectory
from workcell import CollisionRisk, Workcell

LINKS = (0.4, 0.3, 0.1)


def test_forward_kinematics_straight_arm():
    assert forward(LINKS, (0, 0, 0)) == [(0.0, 0.0), (0.4, 0.0), (0.7, 0.0), (0.8, 0.0)]


def test_inverse_kinematics_round_trip():
    q1, q2 = two_link_ik(0.4, 0.3, 0.5, 0.2)
    x, y = forward((0.4, 0.3), (q1, q2))[-1]
    assert (round(x, 4), round(y, 4)) == (0.5, 0.2)


def test_joint_limits():
    arm = Arm("a", LINKS, angles=[0.0, 0.0, 0.0])
    with pytest.raises(JointLimit):
        arm.move_joint(1, 175)


def test_two_default_arms_move_independently():
    left = Arm("left", LINKS)
    right = Arm("right", LINKS, base=(2.0, 0.0))
    left.move_joint(0, 90)
    assert right.tool() == (2.8, 0.0)


def test_new_trajectory_starts_empty():
    Trajectory("a").add((10, 0, 0))
    assert Trajectory("b").waypoints == []


def test_interpolation():
    path = Trajectory("a", []).add((0, 0, 0)).add((90, 0, -30)).interpolate(3)
    assert path == [(0, 0, 0), (30.0, 0.0, -10.0), (60.0, 0.0, -20.0), (90.0, 0.0, -30.0)]


def test_workcell_runs_each_program_on_its_own_arm():
    cell = Workcell()
    cell.add_arm("left", LINKS, (0.0, 0.0))
    cell.add_arm("right", LINKS, (2.0, 0.0))
    cell.teach("left", (0, 0, 0))
    cell.teach("left", (90, 0, 0))
    cell.teach("right", (180 - 10, 0, 0))
    tools = cell.run(steps=2)
    assert tools["left"] == (0.0, 0.8)
    assert tools["right"][0] < 2.0


def test_collision_is_detected():
    cell = Workcell(clearance=0.2)
    cell.add_arm("a", LINKS, (0.0, 0.0))
    cell.add_arm("b", LINKS, (1.5, 0.0))
    cell.teach("a", (0, 0, 0))
    cell.teach("b", (170, 0, 0))
    with pytest.raises(CollisionRisk):
        cell.run()


def test_home_all_after_run():
    cell = Workcell()
    cell.add_arm("a", LINKS, (0.0, 0.0))
    cell.add_arm("b", LINKS, (3.0, 0.0))
    cell.teach("a", (45, 10, 10))
    cell.run(steps=1)
    cell.home_all()
    assert cell.arms["b"].tool() == (3.8, 0.0)
    assert cell.programs["b"].waypoints == []


def test_programs_export_per_arm():
    cell = Workcell()
    cell.add_arm("a", LINKS, (0.0, 0.0))
    cell.add_arm("b", LINKS, (3.0, 0.0))
    cell.teach("a", (10, 20, 30))
    cell.teach("b", (-5, 0, 0))
    assert cell.export() == "ARM a\nJ 10 20 30\nEND\nARM b\nJ -5 0 0\nEND\n"


def test_import_and_keep_out_zone():
    from safety import KeepOut

    cell = Workcell(zones=[KeepOut("conveyor", -0.1, 0.6, 0.1, 1.0)])
    cell.add_arm("a", LINKS, (0.0, 0.0))
    cell.import_programs("ARM a\nJ 0 0 0\nJ 90 0 0\nEND\n")
    with pytest.raises(CollisionRisk, match="conveyor"):
        cell.run(steps=2)
