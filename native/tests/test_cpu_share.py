"""CpuShare: the thread count follows the cores other processes keep busy (a written /proc/stat, a fake clock)."""

import os

import pytest

from debugrl_native import cpu_share
from debugrl_native.cpu_share import CpuShare

HZ = os.sysconf("SC_CLK_TCK")


class Machine:
    """A 2-core machine's /proc/stat, a clock and this process's own CPU time, all advanced by hand."""

    def __init__(self, tmp_path, monkeypatch):
        self.path = tmp_path / "stat"
        self.now, self.busy, self.idle, self.own = 100.0, 0.0, 0.0, 0.0
        self.write()
        monkeypatch.setattr(cpu_share.time, "monotonic", lambda: self.now)
        monkeypatch.setattr(cpu_share, "_own_busy_s", lambda: self.own)

    def write(self):
        user, idle = int(self.busy * HZ), int(self.idle * HZ)
        self.path.write_text(f"cpu  {user} 0 0 {idle} 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\n")

    def run(self, seconds: float, own_cores: float, other_cores: float):
        self.now += seconds
        self.own += own_cores * seconds
        self.busy += (own_cores + other_cores) * seconds
        self.idle += (2 - own_cores - other_cores) * seconds
        self.write()


@pytest.mark.parametrize("own,others,expected", [
    (2.0, 0.0, 2),  # alone on the machine, using both cores: keep both
    (1.0, 0.0, 2),  # alone, on one thread: the other core is free
    (1.0, 1.0, 1),  # another process holds a core: one thread
    (1.0, 0.5, 1),  # a niced job at half a core is enough to stall MKL's barrier
    (1.0, 0.2, 2),  # a little background noise is not
    (1.0, 3.0, 1),  # overloaded: never fewer than one
])
def test_threads_follow_the_others_load(tmp_path, monkeypatch, own, others, expected):
    m = Machine(tmp_path, monkeypatch)
    share = CpuShare(stat=m.path, cores=2)
    m.run(1.0, own, others)
    assert share.threads(2) == expected
    assert share.threads(1) == 1  # never more than the caller allows


def test_the_measure_is_refreshed_only_after_the_interval(tmp_path, monkeypatch):
    m = Machine(tmp_path, monkeypatch)
    share = CpuShare(stat=m.path, cores=2, min_interval=0.5)
    m.run(1.0, 1.0, 1.0)
    assert share.threads(2) == 1
    m.run(0.1, 1.0, 0.0)  # too short a window: the last measure stands
    assert share.threads(2) == 1
    m.run(1.0, 1.0, 0.0)  # the other process stopped
    assert share.threads(2) == 2


def test_an_unreadable_stat_means_a_quiet_machine(tmp_path, monkeypatch):
    m = Machine(tmp_path, monkeypatch)
    share = CpuShare(stat=tmp_path / "missing", cores=2)
    m.run(1.0, 1.0, 1.0)
    assert share.threads(2) == 2


def test_the_real_proc_stat_reads(tmp_path):
    share = CpuShare(min_interval=0.0)
    assert 1 <= share.threads(4) <= 4
    assert share.others_busy() >= 0.0
