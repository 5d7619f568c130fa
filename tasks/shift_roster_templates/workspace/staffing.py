"""Filling a week template with people: who works which shift, and the checks a manager relies on."""
from dataclasses import dataclass, field

MAX_WEEK_HOURS = 40


class StaffingError(ValueError):
    pass


@dataclass
class Employee:
    name: str
    roles: set = field(default_factory=lambda: {"floor"})
    max_hours: float = MAX_WEEK_HOURS


@dataclass
class Roster:
    template: object
    assignments: dict = field(default_factory=dict)

    def assign(self, shift, employee):
        if shift not in self.template.all_shifts():
            raise StaffingError(f"{shift.label()} is not in template {self.template.name}")
        if shift.role not in employee.roles:
            raise StaffingError(f"{employee.name} cannot work {shift.role}")
        if shift in self.assignments:
            raise StaffingError(f"{shift.label()} already has {self.assignments[shift].name}")
        for other, person in self.assignments.items():
            if person is employee and other.overlaps(shift):
                raise StaffingError(f"{employee.name} already works {other.label()}")
        if self.hours_of(employee) + shift.hours > employee.max_hours:
            raise StaffingError(f"{employee.name} would work over {employee.max_hours} hours")
        self.assignments[shift] = employee

    def hours_of(self, employee):
        return sum(shift.hours for shift, person in self.assignments.items() if person is employee)

    def open_shifts(self):
        return [shift for shift in self.template.all_shifts() if shift not in self.assignments]

    def table(self):
        """One row per shift in week order: (label, name or '-')."""
        rows = []
        for shift in sorted(self.template.all_shifts()):
            person = self.assignments.get(shift)
            rows.append((shift.label(), person.name if person else "-"))
        return rows
