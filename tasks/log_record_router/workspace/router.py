"""Routes log records to sinks, each with its own minimum level and optional service filter."""

from dataclasses import dataclass, field

from levels import normalize
from records import parse_line


@dataclass
class Sink:
    name: str
    threshold: str
    services: frozenset = frozenset()
    received: list = field(default_factory=list)

    def accepts(self, record):
        if self.services and record.service not in self.services:
            return False
        return normalize(record.level) >= normalize(self.threshold)


class Router:
    def __init__(self, sinks):
        self.sinks = list(sinks)
        self.dropped = 0

    def route(self, record):
        targets = [s for s in self.sinks if s.accepts(record)]
        for sink in targets:
            sink.received.append(record)
        if not targets:
            self.dropped += 1
        return [s.name for s in targets]

    def route_lines(self, lines):
        for line in lines:
            if line.strip():
                self.route(parse_line(line))
