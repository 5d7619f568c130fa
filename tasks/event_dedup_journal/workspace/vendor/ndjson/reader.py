import json
import os


class TornFile(ValueError):
    """A line that does not parse, somewhere other than at the end of the file."""


def iter_records(path):
    """Records in file order; nothing when the file does not exist."""
    if not os.path.exists(path):
        return
    with open(path, "rb") as source:
        lines = source.read().split(b"\n")
    last = len(lines) - 1
    for number, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            yield json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            if number == last:
                return
            raise TornFile(f"{path}: line {number + 1} is damaged") from None
