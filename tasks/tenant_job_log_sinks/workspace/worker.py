"""A worker runs one tenant's jobs and reports their progress to that tenant's log sink."""
import logging

from log_sink import JobLogSink, SinkHandler


class Worker:
    def __init__(self, name: str, sink: JobLogSink):
        self.name = name
        self.sink = sink
        self.completed = 0
        self._handler = SinkHandler(sink)
        self.log = logging.getLogger("jobs.worker")
        self.log.setLevel(logging.INFO)
        # Job lines belong to the tenant; keep them out of the service's own log.
        self.log.propagate = False
        self.log.addHandler(self._handler)

    def run(self, job):
        extra = {"job_id": job.job_id}
        self.log.info("started %s", job.kind, extra=extra)
        try:
            result = job.execute()
        except ValueError as exc:
            self.log.error("failed: %s", exc, extra=extra)
            return None
        self.log.info("finished: %d records", len(job.records), extra=extra)
        self.completed += 1
        return result

    def close(self) -> None:
        self.log.removeHandler(self._handler)
        self._handler.close()

    def __enter__(self) -> "Worker":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
