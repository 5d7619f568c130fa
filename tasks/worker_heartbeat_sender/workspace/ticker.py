"""Run a function at a fixed interval on the calling thread."""
import threading


class Ticker:
    """Calls fn() every `interval` seconds while `keep_going` is true.

    wake() cuts the current wait short, so a change of `keep_going` is noticed
    without waiting out the interval.
    """

    def __init__(self, interval, keep_going=True):
        if interval <= 0:
            raise ValueError("interval must be positive")
        self.interval = interval
        self.keep_going = keep_going
        self._wake = threading.Event()
        self.ticks = 0

    def wake(self):
        self._wake.set()

    def run(self, fn):
        while self.keep_going:
            fn()
            self.ticks += 1
            self._wake.wait(self.interval)
            self._wake.clear()
