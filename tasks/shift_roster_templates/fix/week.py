"""A week template: the shifts a store needs on each day, reused every week."""
from shifts import DAYS, Shift, ShiftError, parse_shift


class WeekTemplate:
    def __init__(self, name):
        self.name = name
        self.days = [[] for _ in DAYS]

    def add(self, shift):
        if not isinstance(shift, Shift):
            raise TypeError("add() takes a Shift")
        self.days[shift.day].append(shift)
        self.days[shift.day].sort()
        return shift

    def add_text(self, text, role="floor"):
        return self.add(parse_shift(text, role))

    def remove(self, shift):
        try:
            self.days[shift.day].remove(shift)
        except ValueError:
            raise ShiftError(f"{shift.label()} is not in {self.name}") from None

    def on(self, day_name):
        return list(self.days[DAYS.index(day_name)])

    def all_shifts(self):
        return [shift for day in self.days for shift in day]

    def clear(self):
        self.days = [[] for _ in DAYS]

    def import_lines(self, lines):
        """Bulk-load "Day HH:MM-HH:MM role" lines, grouped by day, replacing nothing."""
        by_day = {}
        for line in lines:
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            *spec, role = text.split()
            shift = parse_shift(" ".join(spec), role)
            by_day.setdefault(shift.day, []).append(shift)
        for day, shifts in by_day.items():
            self.days[day].extend(shifts)
            self.days[day].sort()
        return sum(len(s) for s in by_day.values())

    def hours(self):
        return sum(shift.hours for shift in self.all_shifts())
