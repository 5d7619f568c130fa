import itertools
import time
from dataclasses import dataclass, field

_seq = itertools.count(1)


@dataclass(frozen=True)
class Event:
    topic: str
    payload: dict
    seq: int = field(default_factory=lambda: next(_seq))
    at: float = field(default_factory=time.time)

    def get(self, key, default=None):
        return self.payload.get(key, default)
