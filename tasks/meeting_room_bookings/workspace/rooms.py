"""Room scheduler shared by all offices; the calendar file is the source of truth between restarts."""
from datetime import datetime, timedelta
from pathlib import Path

from booking import Booking
from calendar_store import load_calendar, save_calendar


class RoomTaken(Exception):
    pass


class RoomScheduler:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.bookings = load_calendar(self.path)

    def book(self, room: str, title: str, start: datetime, minutes: int) -> Booking:
        wanted = Booking(room, title, start, start + timedelta(minutes=minutes))
        for existing in self.bookings:
            if existing.overlaps(wanted):
                raise RoomTaken(f"{room} is taken by {existing.title!r} at that time")
        self.bookings.append(wanted)
        save_calendar(self.bookings, self.path)
        return wanted

    def agenda(self, room: str, tz) -> list:
        """``HH:MM title`` lines for one room, in the viewer's timezone."""
        own = sorted((b for b in self.bookings if b.room == room), key=lambda b: b.start)
        return [f"{b.start.astimezone(tz):%H:%M} {b.title}" for b in own]
