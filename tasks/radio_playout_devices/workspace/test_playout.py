import pytest

from devices import DeviceError, DevicePool, NoFreeDevice
from playlist import Item, PlaylistError, ad_share, parse
from playout import Playout
from scheduler import Station

HOUR = """
Morning Theme | 0:20 | jingle
Sunrise | 3:45
Coffee Ad | 0:30 | ad
Northbound | 4:10
"""


def test_parse_playlist():
    items = parse(HOUR)
    assert [i.seconds for i in items] == [20, 225, 30, 250]
    assert ad_share(items) == 5.7
    from playlist import by_kind, longest

    assert by_kind(items)["ad"] == ["Coffee Ad"] and longest(items) == "Northbound"
    with pytest.raises(PlaylistError):
        parse("Song | three minutes")


def test_device_is_exclusive():
    pool = DevicePool(["out1"])
    dev = pool.acquire()
    dev.open("s1")
    with pytest.raises(DeviceError):
        dev.open("s2")
    with pytest.raises(NoFreeDevice):
        pool.acquire()


def test_hour_plays_and_returns_the_device():
    pool = DevicePool(["out1", "out2"])
    station = Station("FM1", Playout(pool))
    station.schedule(7, parse(HOUR))
    assert station.run_hour(7) is True
    assert pool.free() == ["out1", "out2"]
    assert station.report() == {"played": 4, "failed": 0}


def test_broken_item_returns_the_device_once():
    pool = DevicePool(["out1", "out2"])
    playout = Playout(pool)
    assert playout.play("s1", [Item("ok", 60), Item("!corrupt.mp3", 60)]) is False
    assert pool.free() == ["out1", "out2"]


def test_streams_after_a_failure_get_their_own_outputs():
    pool = DevicePool(["out1", "out2"])
    playout = Playout(pool)
    playout.play("bad", [Item("!x", 10)])
    first = pool.acquire()
    first.open("live-show")
    second = pool.acquire()
    second.open("podcast")
    with pytest.raises(NoFreeDevice):
        pool.acquire()
    assert sorted(playout.on_air().values()) == ["live-show", "podcast"]


def test_day_with_a_broken_hour():
    pool = DevicePool(["out1", "out2"])
    station = Station("FM2", Playout(pool))
    station.schedule(8, parse(HOUR))
    station.schedule(9, [Item("!broken", 30)])
    station.schedule(10, parse(HOUR))
    assert station.run_day([8, 9, 10]) == {8: True, 9: False, 10: True}
    assert len(pool.free()) == 2
    assert station.report() == {"played": 8, "failed": 1}


def test_ad_traffic_is_billed_per_spot_played():
    from traffic import TrafficLog

    pool = DevicePool(["out1"])
    station = Station("FM3", Playout(pool), max_ad_share=100.0)
    station.schedule(6, parse(HOUR))
    station.schedule(7, [Item("Coffee Ad", 30, "ad"), Item("!glitch", 5)])
    station.schedule(8, parse(HOUR))
    station.run_day([6, 7, 8])
    log = TrafficLog({"Coffee Ad": ("BeanCo", 40)})
    assert log.invoice(station.playout.log) == {"BeanCo": {"spots": 3, "amount": 120}}
    assert pool.free() == ["out1"]


def test_clock_and_fill():
    from scheduler import clock, fill_report

    items = parse(HOUR)
    assert clock(items, 7)[:3] == [("07:00:00", "Morning Theme"), ("07:00:20", "Sunrise"), ("07:04:05", "Coffee Ad")]
    pool = DevicePool(["out1", "out2"])
    station = Station("FM4", Playout(pool))
    station.schedule(7, items)
    assert fill_report(station) == [(7, 525, 3075)]
    station.run_hour(7)
    assert pool.busiest() == "out1"
    assert pool.utilisation() == "0/2 outputs busy"
