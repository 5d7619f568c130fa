"""Reads and writes warehouse snapshots; old files are upgraded on the way in."""
import json
from pathlib import Path

from migrations import CURRENT_SCHEMA, upgrade
from stock import Snapshot, StockItem


def save_snapshot(snapshot: Snapshot, path: Path) -> None:
    doc = {
        "schema": CURRENT_SCHEMA,
        "warehouse": snapshot.warehouse,
        "items": [
            {
                "sku": it.sku,
                "quantity": it.quantity,
                "unit": it.unit,
                "bin": {"aisle": it.aisle, "rack": it.rack, "shelf": it.shelf},
            }
            for it in snapshot.items
        ],
    }
    Path(path).write_text(json.dumps(doc, indent=2))


def load_snapshot(path: Path) -> Snapshot:
    doc = upgrade(json.loads(Path(path).read_text()))
    # The handheld scanners write current-schema files too, and leave "unit" out for countable goods.
    items = [
        StockItem(
            row["sku"], row["quantity"], row.get("unit", "each"), row["bin"]["aisle"], row["bin"]["rack"], row["bin"]["shelf"]
        )
        for row in doc["items"]
    ]
    return Snapshot(doc["warehouse"], items)
