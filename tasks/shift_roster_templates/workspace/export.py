"""Exports of a roster: the CSV the payroll system imports and the text the staff room prints."""
import csv
import io

from shifts import DAYS


def to_csv(roster):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["day", "start", "end", "role", "employee"])
    for shift in sorted(roster.template.all_shifts()):
        person = roster.assignments.get(shift)
        writer.writerow([
            DAYS[shift.day],
            f"{shift.start // 60:02d}:{shift.start % 60:02d}",
            f"{shift.end // 60:02d}:{shift.end % 60:02d}",
            shift.role,
            person.name if person else "",
        ])
    return buffer.getvalue()


def staff_room_sheet(roster):
    """Days in order, each with its shifts; days without shifts say "closed"."""
    lines = [f"Roster: {roster.template.name}"]
    for index, day in enumerate(DAYS):
        shifts = [s for s in sorted(roster.template.all_shifts()) if s.day == index]
        if not shifts:
            lines.append(f"{day}: closed")
            continue
        names = [(roster.assignments[s].name if s in roster.assignments else "OPEN") for s in shifts]
        lines.append(f"{day}: " + ", ".join(f"{s.label()[4:]} {n}" for s, n in zip(shifts, names)))
    return "\n".join(lines)
