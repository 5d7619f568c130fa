import pytest

from alerts import AlertManager, AlertRule
from dashboard import ERRORS, REQUESTS, Dashboard
from event_bus import EventBus
from metrics import MetricsCollector, MetricSpec
from percentiles import percentile, summary


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


def test_nearest_rank_percentiles():
    samples = [120, 80, 100, 160, 140, 95, 110, 105, 300, 90]
    assert percentile(samples, 50) == 105.0 and percentile(samples, 95) == 300.0 and percentile(samples, 10) == 80.0
    assert summary([]) == {"count": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    with pytest.raises(ValueError):
        percentile(samples, 0)


def test_latency_only_dashboard_panel():
    bus = EventBus()
    collector = MetricsCollector([MetricSpec(REQUESTS, "latency_ms")])
    collector.attach(bus)
    for latency in (40, 60, 500):
        bus.publish(REQUESTS, {"latency_ms": latency})
    dash = Dashboard(collector, AlertManager([AlertRule("slow", "p95_latency_ms", ">", 250, for_checks=2)]))
    assert dash.latency()["p50"] == 60.0
    assert dash.refresh() == [] and dash.refresh() == [("slow", "firing")] and dash.refresh() == []
    assert dash.panel() == "requests 3  errors 0.0%  mean 200 ms  p95 500 ms  [ok]"


def test_alert_resolves_once():
    manager = AlertManager([AlertRule("errors", "error_rate", ">=", 0.1)])
    assert manager.check({"error_rate": 0.2}) == [("errors", "firing")]
    assert manager.firing() == ["errors"]
    assert manager.check({"error_rate": 0.0}) == [("errors", "resolved")] and manager.check({"error_rate": 0.0}) == []
    manager.silence("errors")
    assert manager.check({"error_rate": 0.5}) == [("errors", "firing")]
    assert manager.notifications == [("errors", "firing"), ("errors", "resolved")]
    with pytest.raises(ValueError):
        AlertRule("x", "error_rate", "==", 1)
