"""Customs declaration lines, one per HS code, from a filed manifest."""
from collections import defaultdict
from decimal import Decimal


def declaration(manifest, catalog):
    if not manifest.filed:
        raise ValueError(f"{manifest.shipment_id} r{manifest.revision} has not been filed")
    lines = defaultdict(lambda: {"quantity": 0, "net_kg": Decimal(0), "value": Decimal(0)})
    for pallet in manifest.pallets:
        for code, qty in pallet.items.items():
            sku = catalog[code]
            line = lines[sku.hs_code]
            line["quantity"] += qty
            line["net_kg"] += sku.unit_kg * qty
            line["value"] += sku.unit_value * qty
    return [dict(hs_code=hs, **lines[hs]) for hs in sorted(lines)]


def declaration_text(manifest, catalog):
    head = f"{manifest.shipment_id} r{manifest.revision} {manifest.origin}->{manifest.destination}"
    rows = [f"{d['hs_code']} qty {d['quantity']} net {d['net_kg']} kg value {d['value']}" for d in declaration(manifest, catalog)]
    return "\n".join([head] + rows)
