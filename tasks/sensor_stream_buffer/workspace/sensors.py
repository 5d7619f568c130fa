"""Field sensors. Each emits readings in bursts, with a pause between bursts (radio duty cycle)."""
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    sensor: str
    seq: int
    value: float


class Sensor:
    def __init__(self, name, bursts, pause_s=0.0):
        self.name = name
        self.bursts = [list(b) for b in bursts]
        self.pause_s = pause_s

    def readings(self):
        seq = 0
        for i, burst in enumerate(self.bursts):
            if i:
                time.sleep(self.pause_s)
            for value in burst:
                seq += 1
                yield Reading(self.name, seq, float(value))

    def expected_count(self):
        return sum(len(b) for b in self.bursts)
