"""The save-file format: a JSON document with a version, upgraded on load by the registered migrations."""
from vendor.migrakit import Migrations

SAVES = Migrations("save", base_version=1)

REQUIRED = ("player", "health", "pos", "coins", "inventory", "version")


class CorruptSave(ValueError):
    pass


def check(doc):
    missing = [key for key in REQUIRED if key not in doc]
    if missing:
        raise CorruptSave(f"save lacks {', '.join(missing)}")
    if not isinstance(doc["inventory"], dict) or not all(isinstance(n, int) and n > 0 for n in doc["inventory"].values()):
        raise CorruptSave("inventory must map items to positive counts")
    if len(doc["pos"]) != 2:
        raise CorruptSave("pos must be [x, y]")
    return doc
