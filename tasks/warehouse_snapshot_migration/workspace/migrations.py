"""Upgrades stored snapshot documents to the current schema, one version at a time.

Schema history:
  1  no "schema" key; "qty"; bulk goods counted in grams; location string "A-03-2"
  2  "qty" renamed to "quantity"
  3  bulk goods counted in kg, explicit "unit"
  4  location split into aisle / rack / shelf
"""
import copy

CURRENT_SCHEMA = 4


def _v1_to_v2(doc):
    for item in doc["items"]:
        item["quantity"] = item.pop("qty")
    doc["schema"] = 2
    return doc


def _v2_to_v3(doc):
    for item in doc["items"]:
        bulk = item.pop("bulk", False)
        item["unit"] = "kg" if bulk else "each"
        if bulk:
            item["quantity"] = item["quantity"] / 1000
    return doc


def _v3_to_v4(doc):
    for item in doc["items"]:
        aisle, rack, shelf = item.pop("location").split("-")
        item["bin"] = {"aisle": aisle, "rack": int(rack), "shelf": int(shelf)}
    return doc


MIGRATIONS = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}


def upgrade(doc: dict) -> dict:
    doc = copy.deepcopy(doc)
    doc.setdefault("schema", 1)
    if doc["schema"] > CURRENT_SCHEMA:
        raise ValueError(f"snapshot schema {doc['schema']} is newer than this software ({CURRENT_SCHEMA})")
    while doc["schema"] < CURRENT_SCHEMA:
        doc = MIGRATIONS[doc["schema"]](doc)
        doc["schema"] += 1
    return doc
