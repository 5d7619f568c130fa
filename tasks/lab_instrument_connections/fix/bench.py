"""The lab bench: sessions on pooled links, and the measurement protocol run over a tray of samples."""
from contextlib import contextmanager
from dataclasses import dataclass, field

from instruments import InstrumentTimeout, Spectrometer


@dataclass
class SampleResult:
    sample: str
    peaks: dict = field(default_factory=dict)
    error: str = None


class Bench:
    def __init__(self, pool):
        self.pool = pool
        self.timeouts = 0

    @contextmanager
    def session(self):
        link = self.pool.acquire()
        try:
            yield Spectrometer(link)
        except InstrumentTimeout:
            self.timeouts += 1
            self.pool.discard(link)
            raise
        except BaseException:
            self.pool.release(link)
            raise
        else:
            self.pool.release(link)

    def calibrate(self, reference):
        link = self.pool.acquire()
        try:
            Spectrometer(link).calibrate(reference)
        except InstrumentTimeout:
            self.timeouts += 1
            self.pool.discard(link)
            raise
        except BaseException:
            self.pool.release(link)
            raise
        else:
            self.pool.release(link)

    def run_tray(self, samples, integration_ms=100):
        results = []
        for sample in samples:
            result = SampleResult(sample)
            try:
                with self.session() as spx:
                    spx.set_integration(integration_ms)
                    result.peaks = spx.measure()
            except InstrumentTimeout as exc:
                result.error = str(exc)
            results.append(result)
        return results


def strongest_peak(result):
    if not result.peaks:
        return None
    return max(result.peaks, key=lambda nm: (result.peaks[nm], -nm))
