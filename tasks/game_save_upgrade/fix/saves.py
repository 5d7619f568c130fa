"""Reading and writing save slots."""
import json
from pathlib import Path

from save_schema import SAVES, CorruptSave, check


def write_save(path, doc):
    doc = dict(doc, version=SAVES.latest())
    check(doc)
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, sort_keys=True), encoding="utf-8")
    tmp.replace(path)


def load_save(path):
    """The slot's document at the current version; older saves are upgraded on the way in."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CorruptSave(f"{path}: {exc}") from None
    doc, applied = SAVES.upgrade(raw)
    return check(doc), applied
