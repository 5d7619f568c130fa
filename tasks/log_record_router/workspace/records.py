"""Structured log records as received from services (one JSON object per line)."""

import json
from dataclasses import dataclass, field

from levels import normalize


@dataclass(frozen=True)
class LogRecord:
    service: str
    level: str
    message: str
    fields: dict = field(default_factory=dict, compare=False)


def parse_line(line):
    data = json.loads(line)
    try:
        return LogRecord(
            service=data.pop("service"),
            level=normalize(data.pop("level")),
            message=data.pop("msg"),
            fields=data,
        )
    except KeyError as missing:
        raise ValueError(f"log line lacks {missing}: {line.strip()[:80]}") from None
