"""One worker thread per printer, pulling jobs off the spool."""
import logging
import threading

from printers import OutOfPaper

log = logging.getLogger(__name__)


class PrinterWorker:
    def __init__(self, spooler, printer, on_done=None):
        self.spooler = spooler
        self.printer = printer
        self.on_done = on_done
        self.failed = []
        self.sheets = 0
        self.thread = threading.Thread(target=self._run, name=f"printer-{printer.name}", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def _run(self):
        while True:
            job = self.spooler.next_job(self.printer)
            if job is None:
                log.info("%s: spool closed, stopping", self.printer.name)
                return
            try:
                self.sheets += self.printer.print_job(job)
            except OutOfPaper as exc:
                self.failed.append((job.job_id, str(exc)))
            if self.on_done is not None:
                self.on_done(self.printer.name, job)

    def join(self, timeout):
        self.thread.join(timeout)
        return not self.thread.is_alive()


class PrintRoom:
    def __init__(self, spooler, printers):
        self.spooler = spooler
        self.done = []
        self._done_lock = threading.Lock()
        self._done_event = threading.Condition(self._done_lock)
        self.workers = [PrinterWorker(spooler, p, self._record) for p in printers]

    def _record(self, printer_name, job):
        with self._done_event:
            self.done.append((printer_name, job.job_id))
            self._done_event.notify_all()

    def start(self):
        for w in self.workers:
            w.start()
        return self

    def wait_done(self, count, timeout):
        with self._done_event:
            return self._done_event.wait_for(lambda: len(self.done) >= count, timeout)

    def shutdown(self, timeout=2.0):
        self.spooler.close()
        return all(w.join(timeout) for w in self.workers)

    def alive(self):
        return sorted(w.printer.name for w in self.workers if w.thread.is_alive())
