"""Health dashboard figures derived from the collected series."""
from alerts import AlertManager
from metrics import MetricsCollector
from percentiles import summary

REQUESTS = "http.request"
ERRORS = "http.error"


class Dashboard:
    def __init__(self, collector: MetricsCollector, alerts: AlertManager | None = None):
        self.collector = collector
        self.alerts = alerts

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

    def latency(self) -> dict:
        return summary(self.collector.series.get(REQUESTS, []))

    def figures(self) -> dict:
        return {"error_rate": self.error_rate(), "mean_latency_ms": self.mean_latency_ms(), "p95_latency_ms": self.latency()["p95"],
                "requests": self.collector.count(REQUESTS)}

    def refresh(self) -> list:
        """Recompute the figures and run the alert rules over them; returns the alert transitions."""
        return self.alerts.check(self.figures()) if self.alerts else []

    def panel(self) -> str:
        f = self.figures()
        return (f"requests {f['requests']}  errors {f['error_rate']:.1%}  "
                f"mean {f['mean_latency_ms']:.0f} ms  p95 {f['p95_latency_ms']:.0f} ms  [{self.status()}]")
