"""Keeps calibration tables on disk as JSON so a restarted logger picks them up again."""
import json
from pathlib import Path

from calibration import CalibrationTable, Coefficients

FORMAT_VERSION = 1


def save_table(table: CalibrationTable, path: Path) -> None:
    doc = {
        "format": FORMAT_VERSION,
        "channels": {channel: {"gain": c.gain, "offset": c.offset} for channel, c in table.items()},
    }
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=2))
    tmp.replace(path)


def load_table(path: Path) -> CalibrationTable:
    doc = json.loads(Path(path).read_text())
    if doc.get("format") != FORMAT_VERSION:
        raise ValueError(f"unsupported calibration format {doc.get('format')!r} in {path}")
    entries = {
        channel: Coefficients(float(spec["gain"]), float(spec["offset"]))
        for channel, spec in doc["channels"].items()
    }
    return CalibrationTable(entries)
