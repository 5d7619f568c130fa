import pytest

from feed import from_csv, to_csv
from finder import nearest, network_status, rebalancing_needs
from mirror import FeedMirror
from stations import Station, StationError


def network():
    return [
        Station("S1", "Central", 51.5074, -0.1278, 20, 2, 1),
        Station("S2", "Riverside", 51.5033, -0.1195, 15, 0, 0),
        Station("S3", "Museum", 51.5194, -0.1270, 10, 6, 3, online=False),
        Station("S4", "Park Gate", 51.5100, -0.1350, 12, 10, 1, accepts_returns=False),
    ]


def test_station_validation():
    with pytest.raises(StationError):
        Station("X", "x", 0, 0, 2, 2, 1)


def test_live_nearest_rental():
    assert nearest(network(), 51.5080, -0.1280) == [(0.07, "S1"), (0.53, "S4")]


def test_live_status():
    assert network_status(network()) == {"stations": 4, "online": 3, "bikes": 12, "ebikes": 2, "free_docks": 32}


def test_csv_header():
    assert to_csv(network()).splitlines()[0] == "code,name,lat,lon,capacity,bikes,ebikes,online,accepts_returns"


def test_csv_round_trip():
    assert from_csv(to_csv(network())) == network()


def test_mirror_hides_offline_stations(tmp_path):
    mirror = FeedMirror(tmp_path / "stations.csv")
    mirror.publish(network())
    assert nearest(mirror.stations(), 51.5190, -0.1270) == [(1.14, "S4"), (1.29, "S1")]


def test_mirror_returns_respect_closed_docks(tmp_path):
    mirror = FeedMirror(tmp_path / "stations.csv")
    mirror.publish(network())
    assert [code for _, code in nearest(mirror.stations(), 51.5100, -0.1350, want="return")] == ["S1", "S2"]
    assert mirror.station("S4").can_return() is False


def test_rebalancing_from_the_mirror(tmp_path):
    mirror = FeedMirror(tmp_path / "stations.csv")
    mirror.publish(network())
    assert rebalancing_needs(mirror.stations()) == [("S2", "deliver", 8), ("S4", "collect", 5)]


def test_trip_between_mirrored_stations(tmp_path):
    from trips import TripDesk, TripError

    mirror = FeedMirror(tmp_path / "stations.csv")
    mirror.publish(network())
    desk = TripDesk(mirror.stations())
    with pytest.raises(TripError):
        desk.start("ana", "S3", 0)
    desk.start("ana", "S1", 0, electric=True)
    with pytest.raises(TripError):
        desk.end("ana", "S4", 12)
    assert str(desk.end("ana", "S2", 12)) == "2.80"
    assert desk.distance(desk.finished[0]) == 0.73


def test_bounding_box_and_fill():
    from stations import bounding_box, fill_ratio

    assert bounding_box(network()) == (51.5033, -0.135, 51.5194, -0.1195)
    assert [fill_ratio(s) for s in network()] == [0.15, 0.0, 0.9, 0.92]


def test_mirror_diff(tmp_path):
    mirror = FeedMirror(tmp_path / "stations.csv")
    before = network()
    after = network()
    after[1].bikes = 4
    mirror.publish(after)
    assert mirror.changed_since(before) == ["S2"]
