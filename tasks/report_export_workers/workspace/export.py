"""Monthly report export: query every section in parallel, then render one CSV."""
import threading

from sources import SectionFailed
from vendor.workpool import Pool


class ExportTimeout(Exception):
    pass


class ReportExport:
    def __init__(self, warehouse, sections, workers=2):
        self.warehouse = warehouse
        self.sections = list(sections)
        self.pool = Pool(workers, name="export")
        self._lock = threading.Lock()
        self.results = {}
        self.failures = {}
        self.progress = []

    def _record(self, section, future):
        with self._lock:
            error = future.exception()
            if error is None:
                self.results[section] = future.result()
            else:
                self.failures[section] = str(error)
            self.progress.append(section)
            self._remaining -= 1
            if self._remaining == 0:
                self._all_in.set()

    def _start(self, sections):
        self._remaining = len(sections)
        self._all_in = threading.Event()
        if not sections:
            self._all_in.set()
        for section in sections:
            future = self.pool.submit(self.warehouse.query, section, label=section)
            future.add_done_callback(lambda f, s=section: self._record(s, f))

    def run(self, timeout=2.0):
        """Query all sections; raises ExportTimeout if they are not all recorded within `timeout` seconds."""
        with self._lock:
            self._start(self.sections)
            finished = self._all_in.wait(timeout)
        if not finished:
            raise ExportTimeout(f"{self._remaining} of {len(self.sections)} sections still running")
        return self

    def retry_failed(self, timeout=2.0):
        with self._lock:
            again = sorted(self.failures)
            self.failures = {}
            self._start(again)
            finished = self._all_in.wait(timeout)
        if not finished:
            raise ExportTimeout(f"retry: {self._remaining} sections still running")
        return self

    def csv(self):
        if self.failures:
            raise SectionFailed(f"cannot render with failed sections: {', '.join(sorted(self.failures))}")
        months = sorted({month for rows in self.results.values() for month, _ in rows})
        header = "month," + ",".join(self.sections)
        lines = [header]
        for month in months:
            values = [dict(self.results[s]).get(month, "") for s in self.sections]
            lines.append(month + "," + ",".join(str(v) for v in values))
        return "\n".join(lines) + "\n"

    def close(self):
        self.pool.shutdown(wait=True, timeout=2)
