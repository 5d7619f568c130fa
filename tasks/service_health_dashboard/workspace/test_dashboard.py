from dashboard import ERRORS, REQUESTS, Dashboard
from event_bus import EventBus
from metrics import MetricsCollector, MetricSpec


def wired():
    bus = EventBus()
    collector = MetricsCollector([MetricSpec(REQUESTS, "latency_ms"), MetricSpec(ERRORS)])
    collector.attach(bus)
    return bus, collector, Dashboard(collector)


def send_traffic(bus):
    for latency in (80, 100, 140, 160):
        bus.publish(REQUESTS, {"path": "/orders", "latency_ms": latency})
    bus.publish(ERRORS, {"path": "/orders", "status": 502})


def test_bus_delivers_only_to_the_topic():
    bus = EventBus()
    seen = []
    bus.subscribe("a", seen.append)
    assert bus.publish("b", {"x": 1}) == 0
    assert bus.publish("a", {"x": 2}) == 1
    assert seen == [{"x": 2}]


def test_unsubscribe_stops_delivery():
    bus = EventBus()
    seen = []
    unsubscribe = bus.subscribe("a", seen.append)
    unsubscribe()
    bus.publish("a", {})
    assert seen == []


def test_single_counter_metric():
    bus = EventBus()
    collector = MetricsCollector([MetricSpec("deploy")])
    collector.attach(bus)
    bus.publish("deploy", {"version": "1.2"})
    bus.publish("deploy", {"version": "1.3"})
    assert collector.count("deploy") == 2


def test_error_rate_is_errors_per_request():
    bus, _, dash = wired()
    send_traffic(bus)
    assert dash.error_rate() == 0.25, f"error rate {dash.error_rate()}"
    assert dash.status() == "degraded"


def test_mean_latency_over_requests():
    bus, _, dash = wired()
    send_traffic(bus)
    assert dash.mean_latency_ms() == 120.0, f"mean latency {dash.mean_latency_ms()}"


def test_detached_collector_stops_counting():
    bus, collector, dash = wired()
    collector.detach()
    send_traffic(bus)
    assert dash.error_rate() == 0.0
