"""Room scheduler shared by all offices; the calendar file is the source of truth between restarts."""
from datetime import datetime, timedelta
from pathlib import Path

from booking import Booking
from calendar_store import load_calendar, save_calendar
from offices import Directory
from recurrence import occurrences


class RoomTaken(Exception):
    pass


class RoomScheduler:
    def __init__(self, path: Path, directory: Directory | None = None):
        self.path = Path(path)
        self.directory = directory
        self.bookings = load_calendar(self.path)

    def _checked(self, room: str, title: str, start: datetime, minutes: int, attendees: int, needs) -> Booking:
        wanted = Booking(room, title, start, start + timedelta(minutes=minutes))
        if self.directory is not None:
            self.directory.check(wanted, attendees, needs)
        for existing in self.bookings:
            if existing.overlaps(wanted):
                raise RoomTaken(f"{room} is taken by {existing.title!r} at that time")
        return wanted

    def book(self, room: str, title: str, start: datetime, minutes: int, attendees: int = 1, needs=()) -> Booking:
        wanted = self._checked(room, title, start, minutes, attendees, needs)
        self.bookings.append(wanted)
        save_calendar(self.bookings, self.path)
        return wanted

    def book_series(self, room: str, title: str, first: datetime, minutes: int, every: str, count: int, skip=()) -> list:
        """Book every occurrence or none: one clash refuses the whole series."""
        added = []
        try:
            for start in occurrences(first, every, count, skip):
                added.append(self._checked(room, title, start, minutes, 1, ()))
                self.bookings.append(added[-1])
        except Exception:
            del self.bookings[len(self.bookings) - len(added):]
            raise
        save_calendar(self.bookings, self.path)
        return added

    def agenda(self, room: str, tz) -> list:
        """``HH:MM title`` lines for one room, in the viewer's timezone."""
        own = sorted((b for b in self.bookings if b.room == room), key=lambda b: b.start)
        return [f"{b.start.astimezone(tz):%H:%M} {b.title}" for b in own]
