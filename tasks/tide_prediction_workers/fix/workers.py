import queue
import threading
from datetime import timedelta

from harmonics import extremes, height_at, tidal_range
from stations import use_station


class PredictionPool:
    def __init__(self, workers=3):
        self.workers = workers

    def _run(self, station_code, jobs, results, errors):
        use_station(station_code)
        while True:
            try:
                index, when = jobs.get_nowait()
            except queue.Empty:
                return
            try:
                results[index] = (when, height_at(when))
            except Exception as exc:
                errors.append(exc)

    def heights(self, station_code, times):
        use_station(station_code)
        jobs = queue.Queue()
        for i, when in enumerate(times):
            jobs.put((i, when))
        results = [None] * len(times)
        errors = []
        threads = [
            threading.Thread(target=self._run, args=(station_code, jobs, results, errors), daemon=True)
            for _ in range(self.workers)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=5)
        if any(t.is_alive() for t in threads):
            raise TimeoutError("prediction workers did not finish")
        if errors:
            raise errors[0]
        return results


def sample_times(start, hours, step_minutes=30):
    n = int(hours * 60 // step_minutes) + 1
    return [start + timedelta(minutes=step_minutes * i) for i in range(n)]


def sequential_heights(station_code, times):
    use_station(station_code)
    return [(when, height_at(when)) for when in times]


def daily_table(pool, station_code, start):
    samples = pool.heights(station_code, sample_times(start, 24, 10))
    return {
        "station": station_code,
        "range_m": tidal_range(samples),
        "events": [(kind, when.strftime("%H:%M"), h) for kind, when, h in extremes(samples)],
    }
