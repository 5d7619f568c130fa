"""Per-tenant job log sinks: customers read the progress lines of their own jobs in the dashboard."""
import logging
from dataclasses import dataclass


@dataclass(frozen=True)
class LogEntry:
    level: str
    job_id: str
    message: str


class JobLogSink:
    def __init__(self, tenant: str):
        self.tenant = tenant
        self.entries: list[LogEntry] = []

    def write(self, entry: LogEntry) -> None:
        self.entries.append(entry)

    def job_ids(self) -> list[str]:
        """Jobs that wrote to this sink, in order of their first line."""
        seen: list[str] = []
        for entry in self.entries:
            if entry.job_id not in seen:
                seen.append(entry.job_id)
        return seen

    def lines_for(self, job_id: str) -> list[str]:
        return [e.message for e in self.entries if e.job_id == job_id]

    def errors(self) -> list[LogEntry]:
        return [e for e in self.entries if e.level == "ERROR"]


class SinkHandler(logging.Handler):
    """Forwards records that carry a `job_id` (passed with `extra=`) into a sink."""

    def __init__(self, sink: JobLogSink, level: int = logging.INFO):
        super().__init__(level)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        job_id = getattr(record, "job_id", None)
        if job_id is None:
            # Worker housekeeping lines are not customer-visible.
            return
        self.sink.write(LogEntry(record.levelname, job_id, record.getMessage()))
