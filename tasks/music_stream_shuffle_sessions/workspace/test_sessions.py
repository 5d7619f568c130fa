from decimal import Decimal

from catalog import load_catalog
from charts import format_chart, weekly_chart
from radio import SimilarityGraph, station
from royalties import split_pool
from sessions import ListeningSession
from shuffle import artist_repeats

CATALOG = load_catalog([
    ("t1", "Low Tide", "Marlow", "Shoreline", "3:12"),
    ("t2", "Pier Lights", "Marlow", "Shoreline", "4:05"),
    ("t3", "Gravel", "Okafor", "Roads", "2:48", "E"),
    ("t4", "Switchback", "Okafor", "Roads", "3:30"),
    ("t5", "Neon Moth", "Vela", "Night Shift", "5:01"),
    ("t6", "Late Bus", "Vela", "Night Shift", "2:59"),
])
PLAYLIST = ["t1", "t2", "t3", "t4", "t5", "t6"]


def test_shuffle_is_repeatable_for_a_seed():
    a = ListeningSession("ana", CATALOG, seed=7).shuffle_play(PLAYLIST)
    b = ListeningSession("ana", CATALOG, seed=7).shuffle_play(PLAYLIST)
    assert a == b
    assert sorted(a) == PLAYLIST


def test_shuffle_spreads_artists():
    session = ListeningSession("ana", CATALOG, seed=3)
    session.shuffle_play(PLAYLIST)
    assert artist_repeats(list(session.queue)) == 0


def test_explicit_filter():
    kid = ListeningSession("kid", CATALOG, seed=1, allow_explicit=False)
    order = kid.shuffle_play(PLAYLIST)
    assert "t3" not in order and len(order) == 5
    assert kid.enqueue_next("t3") is False
    assert kid.enqueue_next("t4") is True and kid.queue[0].track_id == "t4"
    assert kid.remaining_seconds() == 192 + 245 + 210 + 301 + 179 + 210


def test_recently_heard_tracks_go_last():
    session = ListeningSession("ana", CATALOG, seed=11)
    session.queue.extend(CATALOG.playlist(["t5", "t6"]))
    session.listen_through()
    order = session.shuffle_play(PLAYLIST)
    assert set(order[-2:]) == {"t5", "t6"}


def test_one_listener_does_not_reorder_another():
    ana = ListeningSession("ana", CATALOG, seed=5)
    ana.queue.extend(CATALOG.playlist(["t1", "t2", "t3"]))
    ana.listen_through()
    ben = ListeningSession("ben", CATALOG, seed=5)
    assert ben.recently_played() == []
    assert ben.shuffle_play(PLAYLIST) == ListeningSession("cy", CATALOG, seed=5).shuffle_play(PLAYLIST)


def test_skips_under_thirty_seconds_are_not_scrobbled():
    session = ListeningSession("dee", CATALOG, seed=2)
    session.queue.extend(CATALOG.playlist(["t1", "t4", "t6"]))
    scrobbles = session.listen_through(skip_after={"t4": 12})
    assert scrobbles == [("dee", "t1", 192), ("dee", "t6", 179)]
    assert session.recently_played(2) == ["t6", "t4"]


def test_royalty_split():
    scrobbles = [("a", "t1", 192), ("b", "t5", 301), ("a", "t6", 100)]
    payouts = split_pool(Decimal("10.00"), scrobbles, CATALOG)
    # Marlow 192/593, Vela 401/593 of the pool, rounded down to the cent
    assert payouts == {"Marlow": Decimal("3.23"), "Vela": Decimal("6.76"), None: Decimal("0.01")}


def graph():
    g = SimilarityGraph()
    g.link("Marlow", "Vela", 0.8)
    g.link("Vela", "Okafor", 0.6)
    g.link("Marlow", "Okafor", 0.3)
    return g


def test_similarity_walk():
    assert graph().within("Marlow", hops=1) == ["Marlow", "Vela"]
    assert graph().within("Marlow", hops=2) == ["Marlow", "Vela", "Okafor"]


RADIO = load_catalog([
    ("r1", "Coastline", "Marlow", "Radio Edits", "3:00"),
    ("r2", "Breakwater", "Marlow", "Radio Edits", "3:40"),
    ("r3", "Dust", "Okafor", "Radio Edits", "2:30"),
    ("r4", "Overpass", "Okafor", "Radio Edits", "3:10"),
    ("r5", "Sodium", "Vela", "Radio Edits", "4:20"),
    ("r6", "Last Stop", "Vela", "Radio Edits", "3:05"),
])


def test_station_for_a_new_listener_starts_fresh():
    first = ListeningSession("eve", RADIO, seed=9)
    first.queue.extend(RADIO.playlist(["r5", "r6"]))
    first.listen_through()
    new = ListeningSession("fin", RADIO, seed=9)
    order = station(new, graph(), "Vela", length=6)
    assert order == ["r4", "r5", "r1", "r6", "r3", "r2"]
    assert artist_repeats(list(new.queue)) == 0


def test_weekly_chart():
    scrobbles = [("a", "t1", 192), ("b", "t1", 100), ("a", "t5", 301), ("c", "t5", 301), ("c", "t2", 245)]
    chart = weekly_chart(scrobbles, CATALOG)
    assert [(row["position"], row["track"], row["listeners"]) for row in chart] == [
        (1, "Neon Moth", 2), (2, "Low Tide", 2), (3, "Pier Lights", 1)]
    assert format_chart(chart[:1]) == " 1. Neon Moth - Vela (2)"
    assert format_chart([]) == "no plays this week"
