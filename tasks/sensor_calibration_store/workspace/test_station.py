import json

import pytest

from calibration import CalibrationTable
from station import WeatherStation


def make_station():
    station = WeatherStation("ridge")
    station.calibrate(0, gain=0.1, offset=-40.0)   # temperature, degC
    station.calibrate(3, gain=0.25, offset=0.0)    # humidity, %
    station.calibrate(7, gain=2.0, offset=900.0)   # pressure, hPa
    return station


def test_reading_applies_gain_and_offset():
    station = make_station()
    assert station.reading(0, 612) == pytest.approx(21.2)
    assert station.reading(7, 55) == pytest.approx(1010.0)


def test_uncalibrated_channel_passes_through():
    assert make_station().reading(5, 123.0) == 123.0


def test_rejects_bad_channel():
    with pytest.raises(ValueError):
        CalibrationTable().set("3", 1.0, 0.0)


def test_persist_writes_every_channel(tmp_path):
    path = make_station().persist(tmp_path)
    doc = json.loads(path.read_text())
    assert len(doc["channels"]) == 3


def test_readings_match_after_restart(tmp_path):
    before = make_station()
    before.persist(tmp_path)
    after = WeatherStation.restore("ridge", tmp_path)
    samples = {0: 612, 3: 180, 7: 55}
    assert after.snapshot(samples) == before.snapshot(samples)


def test_restored_station_can_be_recalibrated(tmp_path):
    make_station().persist(tmp_path)
    station = WeatherStation.restore("ridge", tmp_path)
    station.calibrate(3, gain=0.5, offset=1.0)
    assert len(station.table) == 3
    assert station.table.channels() == [0, 3, 7]
