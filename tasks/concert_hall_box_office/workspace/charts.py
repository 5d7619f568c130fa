"""The printed seating chart and the nightly sales sheet."""
from collections import defaultdict

from venues import HALL, section_of


def seating_chart(event, section_code):
    """One line per row: X sold, H held, . free."""
    section = HALL[section_code]
    lines = []
    for r in range(section.rows):
        row = chr(65 + r)
        marks = []
        for n in range(1, section.seats_per_row + 1):
            seat = f"{section_code}-{row}{n}"
            marks.append("X" if seat in event.sold else "H" if seat in event.held else ".")
        lines.append(f"{row} {''.join(marks)}")
    return lines


def sales_sheet(event):
    """Per section: seats sold, capacity and takings in pounds."""
    count = defaultdict(int)
    takings = defaultdict(int)
    for seat, (_, price) in event.sold.items():
        code = section_of(seat).code
        count[code] += 1
        takings[code] += price
    rows = []
    for code, section in HALL.items():
        rows.append(f"{code:<7}{count[code]:>3}/{section.capacity:<3} {takings[code] / 100:>8.2f}")
    rows.append(f"{'TOTAL':<7}{sum(count.values()):>3}/{sum(s.capacity for s in HALL.values()):<3} {event.revenue() / 100:>8.2f}")
    return rows
