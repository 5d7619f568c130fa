"""CSV export and import, the format sales reps edit in spreadsheets between syncs."""
import csv
from dataclasses import astuple
from pathlib import Path

from contacts import COLUMNS, Contact


def export_contacts(contacts, path: Path) -> int:
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        count = 0
        for contact in sorted(contacts, key=lambda c: c.contact_id):
            writer.writerow(astuple(contact))
            count += 1
    return count


def import_contacts(path: Path):
    """Returns ``(contacts, problems)``; a bad row is reported with its line number and skipped."""
    contacts, problems = [], []
    with open(path, encoding="utf-8") as source:
        for line_no, line in enumerate(source, start=1):
            row = next(csv.reader([line]))
            if line_no == 1:
                if tuple(row) != COLUMNS:
                    raise ValueError(f"{path}: unexpected header {row}")
                continue
            if len(row) != len(COLUMNS):
                problems.append(f"line {line_no}: expected {len(COLUMNS)} fields, got {len(row)}")
                continue
            try:
                contacts.append(Contact(*row))
            except ValueError as err:
                problems.append(f"line {line_no}: {err}")
    return contacts, problems
