import pytest

from bench import Bench, strongest_peak
from instruments import InstrumentTimeout, Spectrometer
from simulator import SimulatedSpectrometer
from vendor.devlink import Link, LinkPool


def make_bench(stall_on=(), max_links=1):
    device = SimulatedSpectrometer(stall_on=stall_on)
    return Bench(LinkPool(lambda: Link(device, "usb:0"), max_links=max_links)), device


def test_identify_and_measure():
    bench, _ = make_bench()
    with bench.session() as spx:
        assert spx.identify()["serial"] == "SPX-0042"
        spx.set_integration(200)
        assert spx.measure() == {450: 0.24, 532: 1.74, 650: 0.66}


def test_links_are_reused_between_sessions():
    bench, device = make_bench()
    for _ in range(3):
        with bench.session() as spx:
            spx.measure()
    assert bench.pool.stats() == {"idle": 1, "in_use": 0, "created": 1, "reused": 2}
    assert device.measurements == 3


def test_tray_results():
    bench, _ = make_bench()
    results = bench.run_tray(["leaf-a", "leaf-b"], integration_ms=50)
    assert [strongest_peak(r) for r in results] == [532, 532]
    assert results[1].peaks[650] == 0.165


def test_tray_continues_after_a_stalled_measurement():
    bench, _ = make_bench(stall_on={2})
    results = bench.run_tray(["s1", "s2", "s3", "s4"])
    assert [r.error is None for r in results] == [True, False, True, True]
    assert results[3].peaks[532] == 0.87
    assert bench.timeouts == 1


def test_stalled_link_is_replaced():
    bench, device = make_bench(stall_on={1})
    with pytest.raises(InstrumentTimeout):
        with bench.session() as spx:
            spx.measure()
    with bench.session() as spx:
        assert spx.identify()["model"] == "SPX"
    assert bench.pool.stats()["in_use"] == 0
    assert bench.pool.stats()["created"] == 2


def test_calibration_after_a_failed_one():
    stalls = {"n": 0}

    class StallingOnce(SimulatedSpectrometer):
        def write(self, data):
            if data.startswith(b"CAL") and stalls["n"] == 0:
                stalls["n"] += 1
                raise TimeoutError("no answer")
            super().write(data)

    device = StallingOnce()
    bench = Bench(LinkPool(lambda: Link(device, "usb:1"), max_links=1))
    with pytest.raises(InstrumentTimeout):
        bench.calibrate("NIST-2034")
    bench.calibrate("NIST-2034")
    assert device.calibrated_with == "NIST-2034"


def test_unknown_command_is_an_instrument_error():
    bench, _ = make_bench()
    with bench.session() as spx:
        with pytest.raises(Exception, match="unknown command"):
            spx._ask("SELFTEST")
        assert isinstance(spx, Spectrometer)
