"""Saves the booking calendar as a JSON list, one object per booking."""
import json
from datetime import datetime, timezone
from pathlib import Path

from booking import Booking

STAMP = "%Y-%m-%dT%H:%M"


def _encode_time(moment: datetime) -> str:
    return moment.strftime(STAMP)


def _decode_time(text: str) -> datetime:
    return datetime.strptime(text, STAMP).replace(tzinfo=timezone.utc)


def save_calendar(bookings, path: Path) -> None:
    rows = [
        {"room": b.room, "title": b.title, "start": _encode_time(b.start), "end": _encode_time(b.end)}
        for b in sorted(bookings, key=lambda b: (b.room, b.start))
    ]
    Path(path).write_text(json.dumps(rows, indent=1))


def load_calendar(path: Path) -> list:
    path = Path(path)
    if not path.exists():
        return []
    return [
        Booking(row["room"], row["title"], _decode_time(row["start"]), _decode_time(row["end"]))
        for row in json.loads(path.read_text())
    ]
