import pytest

from matrix import Matrix
from network import ResistorNetwork
from solver import SingularMatrix, solve


def divider():
    # 1 --2 ohm-- 2 --3 ohm-- ground, and 1 --6 ohm-- ground
    net = ResistorNetwork(2)
    net.resistor(1, 2, 2.0)
    net.resistor(2, 0, 3.0)
    net.resistor(1, 0, 6.0)
    return net


def test_solve_small_system():
    assert solve(Matrix([[2.0, 1.0], [1.0, 3.0]]), [3.0, 5.0]) == pytest.approx([0.8, 1.4])


def test_singular_system():
    with pytest.raises(SingularMatrix):
        solve(Matrix([[1.0, 2.0], [2.0, 4.0]]), [1.0, 2.0])


def test_divider_voltages():
    # 5 ohm in parallel with 6 ohm is 30/11 ohm; 1 A gives 30/11 V at node 1
    v1, v2 = divider().voltages([1.0, 0.0])
    assert v1 == pytest.approx(30 / 11)
    assert v2 == pytest.approx(30 / 11 * 3 / 5)


def test_sweep_over_source_currents():
    net = divider()
    results = net.sweep([[1.0, 0.0], [2.0, 0.0], [0.0, 1.0]])
    assert results[0] == pytest.approx([30 / 11, 18 / 11])
    assert results[1] == pytest.approx([60 / 11, 36 / 11]), results
    # by reciprocity 1 A into node 2 gives node 1 the same 18/11 V
    assert results[2][0] == pytest.approx(18 / 11), results


def test_power_matches_source_power():
    net = divider()
    volts = net.voltages([1.0, 0.0])
    # all power comes from the 1 A source at node 1: P = V1 * I
    assert net.power(volts) == pytest.approx(30 / 11)
