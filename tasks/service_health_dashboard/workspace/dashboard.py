"""Health dashboard figures derived from the collected series."""
from metrics import MetricsCollector

REQUESTS = "http.request"
ERRORS = "http.error"


class Dashboard:
    def __init__(self, collector: MetricsCollector):
        self.collector = collector

    def error_rate(self) -> float:
        requests = self.collector.count(REQUESTS)
        if requests == 0:
            return 0.0
        return self.collector.count(ERRORS) / requests

    def mean_latency_ms(self) -> float:
        requests = self.collector.count(REQUESTS)
        if requests == 0:
            return 0.0
        return self.collector.total(REQUESTS) / requests

    def status(self, max_error_rate: float = 0.05) -> str:
        return "degraded" if self.error_rate() > max_error_rate else "ok"
