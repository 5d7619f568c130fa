"""Printers: what they can do and what came out of them."""
import threading


class OutOfPaper(RuntimeError):
    pass


class Printer:
    def __init__(self, name, color=False, duplex=False, papers=("A4",), sheets_loaded=500):
        self.name = name
        self.capabilities = {f"paper:{p}" for p in papers}
        if color:
            self.capabilities.add("color")
        if duplex:
            self.capabilities.add("duplex")
        self.sheets_loaded = sheets_loaded
        self.output = []
        self._lock = threading.Lock()

    def can_print(self, job):
        return job.needs() <= self.capabilities

    def print_job(self, job):
        with self._lock:
            if job.sheets > self.sheets_loaded:
                raise OutOfPaper(f"{self.name}: {job.sheets} sheets needed, {self.sheets_loaded} loaded")
            self.sheets_loaded -= job.sheets
            self.output.append(job.job_id)
        return job.sheets

    def load_paper(self, sheets):
        with self._lock:
            self.sheets_loaded += sheets

    def __repr__(self):
        return f"Printer({self.name!r}, {sorted(self.capabilities)})"
