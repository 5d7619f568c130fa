import pytest

from calibration import Calibration
from compensation import convert_run, for_conditions
from pool import CalibrationPool, UnknownSensor


def make_pool():
    pool = CalibrationPool()
    pool.register(Calibration("T1", "C", {"offset": 1.0, "gain": 0.5}))
    pool.register(Calibration("P7", "kPa", {"offset": 0.0, "gain": 2.0, "quadratic": 0.01}))
    return pool


def test_bench_conversion():
    pool = make_pool()
    assert pool.bench("T1").apply(10.0) == pytest.approx(6.0)
    assert pool.bench("P7").apply(10.0) == pytest.approx(21.0)


def test_warm_run_is_compensated():
    pool = make_pool()
    # 30 C is 10 degrees above bench: offset drops by 0.2
    assert convert_run(pool, "T1", [10.0], ambient=30.0) == [5.8]


def test_runs_do_not_affect_each_other():
    pool = make_pool()
    warm = convert_run(pool, "T1", [10.0, 20.0], ambient=30.0)
    cold = convert_run(pool, "T1", [10.0, 20.0], ambient=10.0)
    assert warm == [5.8, 10.8]
    assert cold == [6.2, 11.2], f"cold run converted to {cold}"


def test_bench_values_survive_a_low_voltage_run():
    pool = make_pool()
    convert_run(pool, "P7", [1.0, 2.0], ambient=20.0, supply=4.0)
    assert pool.bench("P7").apply(10.0) == pytest.approx(21.0), pool.bench("P7").apply(10.0)


def test_notes_stay_with_the_run():
    pool = make_pool()
    cal = for_conditions(pool, "T1", ambient=25.0)
    assert cal.notes == ["compensated for 25.0 C"]
    assert pool.bench("T1").notes == []


def test_unknown_sensor():
    with pytest.raises(UnknownSensor):
        make_pool().checkout("X9")
