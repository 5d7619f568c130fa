"""Domain events published inside the order service."""
import re
from dataclasses import dataclass, field

_TOPIC = re.compile(r"^[a-z]+(\.[a-z_]+)+$")


@dataclass(frozen=True)
class Event:
    topic: str
    payload: dict = field(default_factory=dict)

    def __post_init__(self):
        if not _TOPIC.match(self.topic):
            raise ValueError(f"topic must look like 'order.paid', got {self.topic!r}")
