"""Patient records as JSON lines, one patient per line.

The file format has changed over time. Readers ignore keys they do not know, so a file written by a newer version of
the software can still be opened by an older one at the front desk.
"""
import json
from dataclasses import asdict, fields
from datetime import date
from pathlib import Path

from patient import Patient

# Older files used these names; they are read under the new name.
RENAMED_FIELDS = {"phone": "mobile_phone", "recall_interval": "recall_months"}


def _to_row(p: Patient) -> dict:
    row = asdict(p)
    row["last_visit"] = p.last_visit.isoformat() if p.last_visit else None
    return row


def _from_row(row: dict) -> Patient:
    row = dict(row)
    for old, new in RENAMED_FIELDS.items():
        if old in row and new not in row:
            row[new] = row.pop(old)
    known = {f.name for f in fields(Patient)}
    data = {k: v for k, v in row.items() if k in known}
    if data.get("last_visit"):
        data["last_visit"] = date.fromisoformat(data["last_visit"])
    return Patient(**data)


def write_patients(patients, path: Path) -> None:
    Path(path).write_text("".join(json.dumps(_to_row(p)) + "\n" for p in patients))


def read_patients(path: Path) -> list:
    lines = Path(path).read_text().splitlines()
    return [_from_row(json.loads(line)) for line in lines if line.strip()]
