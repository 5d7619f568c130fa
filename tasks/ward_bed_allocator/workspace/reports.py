"""The bed manager's board: occupancy per ward and the day's movements from the desk's log."""
from collections import Counter


def occupancy_lines(board):
    lines = []
    for name, (taken, total) in board.census().items():
        pct = round(100 * taken / total) if total else 0
        lines.append(f"{name:<12} {taken}/{total} ({pct}%)")
    return lines


def movements(desk):
    counts = Counter(kind for kind, _, _ in desk.log)
    return {kind: counts.get(kind, 0) for kind in ("admit", "transfer", "discharge", "waitlist")}


def who_is_where(board):
    by_ward = {}
    for ward in board.wards.values():
        by_ward[ward.name] = {bed: board.occupancy[bed] for bed in ward.beds if bed in board.occupancy}
    return by_ward


def double_booked(board):
    """Patients assigned to a bed that was never released before the next assignment."""
    holder, lost = {}, []
    for kind, bed, patient in board.history:
        if kind == "assign":
            if bed in holder:
                lost.append(holder[bed])
            holder[bed] = patient
        else:
            holder.pop(bed, None)
    return lost
