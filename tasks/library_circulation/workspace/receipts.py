"""The slip printed at the desk when items are checked out."""


def receipt(patron, loans):
    lines = [f"Borrower: {patron.name} ({patron.card})", ""]
    for loan in sorted(loans, key=lambda l: (l.due_on, l.barcode)):
        lines.append(f"{loan.barcode:<8} {loan.kind:<9} due {loan.due_on:%a %d %b %Y}")
    lines += ["", f"{len(loans)} item{'s' if len(loans) != 1 else ''}"]
    if patron.owed_cents():
        lines.append(f"Outstanding fees: {patron.owed_cents() / 100:.2f}")
    return "\n".join(lines)
