"""How many torch threads a CPU step should use, given what the rest of the machine is doing right now.

On this project's 2-core machine, MKL's threaded kernels wait at a barrier for every thread of the pool. When another
process holds a core, the thread that shares it is descheduled and the whole step waits for it: the learner's
forward+backward fell from 165 tokens/s (2 threads, quiet) to 38 (2 threads, load 4), against 70 on one thread at the
same load (benchmarks/learner.md), and the server's small decode steps took 3-100 ms per projection instead of ~1 ms
(benchmarks/inference.md). On a quiet machine the second thread is worth having. So the choice follows the load:
`CpuShare.threads()` measures, over the last interval, the cores kept busy by everything but this process (the
machine's busy time from /proc/stat less this process's own CPU time) and leaves those cores to their owners.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

STAT = Path("/proc/stat")
MIN_INTERVAL_S = 0.5  # shorter windows are noise: one scheduler tick is 10 ms
FREE_SLACK = 0.3


def _machine_busy_s(stat: Path) -> float | None:
    """Seconds of CPU time all cores have spent busy since boot (user, nice, system, irq, softirq, steal)."""
    try:
        fields = stat.read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(x) for x in fields[1:9]]  # user nice system idle iowait irq softirq steal
    busy = sum(ticks) - ticks[3] - ticks[4]
    return busy / os.sysconf("SC_CLK_TCK")


def _own_busy_s() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class CpuShare:
    """The cores other processes use, refreshed at most every `min_interval` seconds (cheap to call per step)."""

    def __init__(self, min_interval: float = MIN_INTERVAL_S, stat: Path = STAT, cores: int | None = None):
        self.min_interval, self.stat = min_interval, stat
        self.cores = cores or len(os.sched_getaffinity(0))
        self._last = (time.monotonic(), _machine_busy_s(stat), _own_busy_s())
        self._others: float = 0.0

    def others_busy(self) -> float:
        """Cores busy outside this process over the last measured interval (0 when /proc/stat cannot be read)."""
        now = time.monotonic()
        t0, machine0, own0 = self._last
        if now - t0 >= self.min_interval:
            machine, own = _machine_busy_s(self.stat), _own_busy_s()
            if machine is not None and machine0 is not None:
                self._others = max(0.0, (machine - machine0) - (own - own0)) / (now - t0)
            self._last = (now, machine, own)
        return self._others

    def threads(self, most: int) -> int:
        """The thread count for the next step, between 1 and `most`: the cores the others leave free, a core counting
        as free while they use less than 0.3 of it (a niced job at half a core is enough to stall the barrier)."""
        free = self.cores - self.others_busy()
        return max(1, min(most, int(free + FREE_SLACK)))
