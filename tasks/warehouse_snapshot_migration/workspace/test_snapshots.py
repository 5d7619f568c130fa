import json

import pytest

from snapshot_store import load_snapshot, save_snapshot
from stock import Snapshot, StockItem, reorder_list

MINIMUMS = {"FLOUR-25": (20.0, "kg"), "JAR-500": (100, "each")}


def write(tmp_path, doc):
    path = tmp_path / "snapshot.json"
    path.write_text(json.dumps(doc))
    return path


def legacy_items(quantity_key):
    return [
        {"sku": "FLOUR-25", quantity_key: 12500, "bulk": True, "location": "B-04-1"},
        {"sku": "JAR-500", quantity_key: 340, "bulk": False, "location": "A-11-3"},
    ]


def test_current_snapshot_round_trips(tmp_path):
    snap = Snapshot("leipzig", [StockItem("FLOUR-25", 12.5, "kg", "B", 4, 1), StockItem("JAR-500", 340, "each", "A", 11, 3)])
    save_snapshot(snap, tmp_path / "s.json")
    assert load_snapshot(tmp_path / "s.json") == snap


def test_schema_3_location_is_split(tmp_path):
    doc = {"schema": 3, "warehouse": "leipzig", "items": [{"sku": "JAR-500", "quantity": 340, "unit": "each", "location": "A-11-3"}]}
    item = load_snapshot(write(tmp_path, doc)).item("JAR-500")
    assert (item.aisle, item.rack, item.shelf) == ("A", 11, 3)


def test_schema_2_bulk_goods_become_kilograms(tmp_path):
    snap = load_snapshot(write(tmp_path, {"schema": 2, "warehouse": "leipzig", "items": legacy_items("quantity")}))
    assert snap.item("FLOUR-25").quantity == pytest.approx(12.5)
    assert snap.item("FLOUR-25").unit == "kg"


def test_newer_schema_is_refused(tmp_path):
    with pytest.raises(ValueError):
        load_snapshot(write(tmp_path, {"schema": 9, "warehouse": "leipzig", "items": []}))


def test_schema_1_file_loads_like_schema_2(tmp_path):
    v1 = load_snapshot(write(tmp_path, {"warehouse": "leipzig", "items": legacy_items("qty")}))
    v2 = load_snapshot(write(tmp_path, {"schema": 2, "warehouse": "leipzig", "items": legacy_items("quantity")}))
    assert v1 == v2


def test_reorder_from_oldest_snapshot(tmp_path):
    snap = load_snapshot(write(tmp_path, {"warehouse": "leipzig", "items": legacy_items("qty")}))
    assert reorder_list(snap, MINIMUMS) == ["FLOUR-25"]
