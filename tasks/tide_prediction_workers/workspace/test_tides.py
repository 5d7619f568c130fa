import threading
from datetime import datetime, timezone

import pytest

import stations
from harmonics import height_at, tidal_range
from workers import PredictionPool, daily_table, sample_times, sequential_heights

START = datetime(2026, 6, 1, tzinfo=timezone.utc)


def test_reference_station_is_a_pure_cosine():
    stations.use_station("REF")
    assert height_at(datetime(2026, 1, 1, tzinfo=timezone.utc)) == 1.0


def test_naive_times_are_rejected():
    with pytest.raises(ValueError):
        height_at(datetime(2026, 1, 1))


def test_sequential_bristol_range():
    samples = sequential_heights("BRS", sample_times(START, 24, 10))
    assert 10.0 < tidal_range(samples) < 11.0


def test_pool_matches_sequential_for_bristol():
    times = sample_times(START, 6)
    expected = sequential_heights("BRS", times)
    stations.use_station("REF")
    assert PredictionPool(workers=3).heights("BRS", times) == expected


def test_pool_from_a_fresh_thread_uses_the_requested_station():
    times = sample_times(START, 3)
    expected = sequential_heights("HLF", times)
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("v", PredictionPool(2).heights("HLF", times)), daemon=True)
    t.start()
    t.join(timeout=5)
    assert not t.is_alive(), "pool hung"
    assert out["v"] == expected


def test_daily_table_for_halifax():
    table = daily_table(PredictionPool(4), "HLF", START)
    assert table["station"] == "HLF"
    assert 1.0 < table["range_m"] < 2.0
    assert [kind for kind, _, _ in table["events"]][:2] in (["high", "low"], ["low", "high"])
    assert all(h > 0.0 for _, _, h in table["events"])


def test_unknown_station():
    with pytest.raises(KeyError):
        PredictionPool().heights("XXX", sample_times(START, 1))


def test_almanac_renders_each_station():
    from almanac import Almanac

    text = Almanac(["BRS", "HLF"], PredictionPool(2)).render(START, 1)
    lines = text.splitlines()
    assert lines[0] == "== Bristol Harbour (BRS), datum +6.9 m"
    assert lines[2] == "== Halifax (HLF), datum +1.1 m"
    assert lines[3].startswith("Mon 01 Jun  H 02:30  1.60")


def test_bristol_has_springs_and_neaps():
    from almanac import spring_neap_ratio

    assert spring_neap_ratio(PredictionPool(2), "BRS", START) > 1.5


def test_bridge_passages_at_bristol():
    from almanac import bridge_passages

    windows = bridge_passages(PredictionPool(3), "BRS", START, bridge_m=14.0, air_draft_m=6.0)
    assert windows == [("00:00", "05:00"), ("11:30", "17:30"), ("23:30", "00:00")]
