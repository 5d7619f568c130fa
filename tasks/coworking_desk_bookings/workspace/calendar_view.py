from bookings import SLOTS


def day_grid(book, day):
    rows = []
    for code in sorted(book.desks):
        cells = []
        for slot in ("am", "pm"):
            taken = [b for b in book.bookings.values()
                     if b.desk == code and b.day == day and b.status == "confirmed" and b.covers(slot)]
            cells.append(taken[0].member[:6].ljust(6) if taken else "  --  ")
        rows.append(f"{code:<4}|{'|'.join(cells)}|")
    return rows


def utilisation(book, day):
    slots_total = len(book.desks) * 2
    used = 0
    for b in book.bookings.values():
        if b.day == day and b.status == "confirmed":
            used += 2 if b.slot == "day" else 1
    return round(100 * used / slots_total, 1) if slots_total else 0.0


def revenue(book):
    confirmed = sum((b.amount for b in book.bookings.values() if b.status == "confirmed"), start=book.fees)
    return str(confirmed)


def member_invoice(book, member):
    lines = []
    total = 0
    for b in sorted(book.bookings.values(), key=lambda b: (b.day, b.ref)):
        if b.member != member or b.status != "confirmed":
            continue
        label = "full day" if b.slot == "day" else f"half day ({b.slot})"
        if b.slot not in SLOTS:
            raise ValueError(f"bad slot {b.slot}")
        lines.append(f"{b.day} {b.desk} {label}: {b.amount}")
        total += b.amount
    lines.append(f"total: {total}")
    return lines
