import gc

from alerts import AlertLog, FrostAlert, MildewRisk
from dashboard import Dashboard
from hub import EventHub
from ingest import Ingest
from sensors import parse_packet

NIGHT = [
    "0;B3;t-31;air_temp=4.2;humidity=88",
    "30;B3;t-31;air_temp=1.6",
    "60;B3;t-31;air_temp=0.8",
    "60;B7;t-71;air_temp=2.5",
    "90;B3;t-31;air_temp=0.2",
    "120;B3;t-31;air_temp=1.9",
    "150;B3;t-31;air_temp=0.9",
]


def test_parse_packet():
    readings = parse_packet("15;B1;s-11;soil_moisture=31.5;air_temp=12")
    assert [(r.topic, r.value, r.minute) for r in readings] == [("B1/soil_moisture", 31.5, 15), ("B1/air_temp", 12.0, 15)]


def test_bad_packets_are_rejected_not_fatal():
    hub = EventHub()
    ingest = Ingest(hub)
    ingest.feed(["0;B1;s-1;air_temp=99", "0;B1;s-1;air_temp=9", ""])
    assert len(ingest.rejected) == 1 and hub.published == 1


def test_function_subscriber_receives_matching_topics():
    hub = EventHub()
    seen = []

    def record(reading):
        seen.append(reading.topic)

    hub.subscribe("B3/*", record)
    Ingest(hub).feed(NIGHT[:4])
    assert seen == ["B3/air_temp", "B3/humidity", "B3/air_temp", "B3/air_temp"]


def test_frost_alert_fires_on_crossing():
    hub = EventHub()
    log = AlertLog()
    assert log.report() == "quiet night"
    alert = FrostAlert(hub, notify=log.add)
    Ingest(hub).feed(NIGHT)
    assert alert.raised == ["frost risk in B3: 0.8 C at minute 60", "frost risk in B3: 0.9 C at minute 150"]
    assert log.report() == "\n".join(alert.raised) and len(log) == 2


def test_dashboard_tracks_latest_and_trend():
    hub = EventHub()
    board = Dashboard(hub, pattern="B3/*")
    Ingest(hub).feed(NIGHT)
    assert board.latest[("B3", "air_temp")] == 0.9
    assert board.direction("B3", "air_temp") == "rising"
    assert board.table() == ["B3 air_temp: 0.9", "B3 humidity: 88.0"]


def test_mildew_spell():
    hub = EventHub()
    risk = MildewRisk(hub, window=3)
    Ingest(hub).feed([f"{m};B5;w-5;air_temp=14;leaf_wetness=70" for m in (0, 30, 60)])
    assert risk.raised == ["mildew risk in B5 at minute 60"]


def test_closed_or_dropped_dashboards_stop_receiving():
    hub = EventHub()
    kept, closed, dropped = Dashboard(hub), Dashboard(hub), Dashboard(hub)
    closed.close()
    del dropped
    gc.collect()
    Ingest(hub).feed(NIGHT[:1])
    assert hub.subscriber_count() == 1
    assert kept.latest[("B3", "humidity")] == 88.0
    assert closed.latest == {}


def test_late_dashboard_gets_retained_values_then_live_ones():
    hub = EventHub(retain=True)
    ingest = Ingest(hub)
    ingest.feed(NIGHT[:4])
    late = Dashboard(hub, pattern="B*/air_temp")
    assert late.table() == ["B3 air_temp: 0.8", "B7 air_temp: 2.5"]
    ingest.feed(NIGHT[4:5])
    assert late.latest[("B3", "air_temp")] == 0.2
    assert late.direction("B3", "air_temp") == "falling"
    assert late.subscription.delivered == 3
