import threading

import pytest

from hub import Hub
from sensors import Sensor
from vendor.ringchannel import Channel, Closed, Empty


def test_channel_drains_after_close():
    ch = Channel(2)
    ch.put(1)
    ch.put(2)
    ch.close()
    with pytest.raises(Closed):
        ch.put(3)
    assert list(ch) == [1, 2]
    with pytest.raises(Empty):
        Channel(1).get(timeout=0.01)


def test_channel_blocks_a_full_put_until_a_get():
    ch = Channel(1)
    ch.put("a")
    t = threading.Thread(target=lambda: ch.put("b", timeout=2), daemon=True)
    t.start()
    assert ch.get(timeout=1) == "a"
    t.join(timeout=2)
    assert not t.is_alive() and ch.get(timeout=1) == "b"


def test_steady_sensors_are_aggregated():
    hub = Hub([Sensor("t1", [[20.5, 21.0, 21.5]]), Sensor("t2", [[5, 7]])], thresholds={"t2": 6}).start()
    assert hub.finish(timeout=3)
    assert hub.aggregator.summary() == {
        "t1": {"count": 3, "mean": 21.0, "low": 20.5, "high": 21.5},
        "t2": {"count": 2, "mean": 6.0, "low": 5.0, "high": 7.0},
    }
    assert hub.aggregator.alerts == [("t2", 2, 7.0)]


def test_bursty_sensor_is_not_cut_off():
    sensor = Sensor("soil", [[1, 2], [3], [4, 5], [6]], pause_s=0.6)
    hub = Hub([sensor]).start()
    assert hub.finish(timeout=5)
    assert hub.aggregator.stats["soil"].count == sensor.expected_count()
    assert hub.aggregator.stats["soil"].gaps == []


def test_alerts_from_late_bursts_are_raised():
    hub = Hub([Sensor("river", [[1.0], [1.2], [4.8]], pause_s=0.6)], thresholds={"river": 3.0}).start()
    assert hub.finish(timeout=5)
    assert hub.aggregator.alerts == [("river", 3, 4.8)]
