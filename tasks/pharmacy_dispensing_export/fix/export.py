"""The nightly export to the regional dispensing register, and the import used after a restore."""
import csv
import io
from datetime import date

from prescriptions import Prescription

COLUMNS = ["rx_id", "patient", "drug", "strength", "directions", "quantity", "repeats", "issued", "prescriber", "notes"]


def to_row(rx):
    return [rx.rx_id, rx.patient, rx.drug, rx.strength, rx.directions, str(rx.quantity), str(rx.repeats),
            rx.issued.isoformat(), rx.prescriber, rx.notes]


def dump(prescriptions):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for rx in prescriptions:
        writer.writerow(to_row(rx))
    return out.getvalue()


def _split(line):
    return next(csv.reader([line]))


def load(text):
    lines = text.splitlines()
    if not lines or _split(lines[0]) != COLUMNS:
        raise ValueError("not a dispensing register export")
    out = []
    for lineno, line in enumerate(lines[1:], 2):
        fields = _split(line)
        if len(fields) != len(COLUMNS):
            raise ValueError(f"line {lineno}: expected {len(COLUMNS)} fields, found {len(fields)}")
        row = dict(zip(COLUMNS, fields))
        out.append(Prescription(
            row["rx_id"], row["patient"], row["drug"], row["strength"], row["directions"], int(row["quantity"]),
            int(row["repeats"]), date.fromisoformat(row["issued"]), row["prescriber"], row["notes"],
        ))
    return out
