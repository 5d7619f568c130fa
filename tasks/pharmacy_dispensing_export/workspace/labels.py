"""Dispensing labels."""
from prescriptions import parse_directions


def label(rx, pharmacy_name="Riverside Pharmacy"):
    qty, form, per_day = parse_directions(rx.directions)
    lines = [
        f"{rx.drug.upper()} {rx.strength}  x{rx.quantity}",
        f"Take {qty:g} {form}{'s' if qty != 1 else ''} {rx.directions.split(form)[-1].lstrip('s ').strip()}",
        f"For: {rx.patient}",
    ]
    if rx.notes:
        lines.append(f"Note: {rx.notes}")
    lines.append(pharmacy_name)
    return lines
