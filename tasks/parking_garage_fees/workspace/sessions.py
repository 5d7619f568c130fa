"""Entry and exit records from the barrier cameras."""
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Session:
    plate: str
    entered: datetime
    left: datetime
    tariff_name: str = "standard"

    def __post_init__(self):
        if self.left < self.entered:
            raise ValueError(f"{self.plate}: exit before entry")

    @property
    def minutes(self):
        return int((self.left - self.entered).total_seconds() // 60)

    def days(self):
        """The calendar-day pieces of the stay as (start, end) pairs."""
        pieces, start = [], self.entered
        while start.date() < self.left.date():
            midnight = datetime.combine(start.date() + timedelta(days=1), datetime.min.time())
            pieces.append((start, midnight))
            start = midnight
        pieces.append((start, self.left))
        return pieces


def parse_log_line(line):
    """'PLATE ENTRY EXIT [TARIFF]' with ISO timestamps."""
    parts = line.split()
    if len(parts) not in (3, 4):
        raise ValueError(f"bad log line {line!r}")
    plate, entered, left = parts[:3]
    name = parts[3] if len(parts) == 4 else "standard"
    return Session(plate, datetime.fromisoformat(entered), datetime.fromisoformat(left), name)
