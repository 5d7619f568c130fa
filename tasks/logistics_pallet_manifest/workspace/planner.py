"""Load planning: merge light pallets, then assign pallets to trucks under their weight limit."""
from decimal import Decimal

from pallets import MAX_GROSS_KG, TARE_KG


def consolidate(manifest, catalog, threshold_kg=Decimal("300")):
    """Merge pallets lighter than threshold_kg onto the lightest such pallet that has room.

    Returns the ids of pallets that were emptied and removed."""
    light = sorted(
        (p for p in manifest.pallets if p.gross_kg(catalog) < threshold_kg and not p.sealed),
        key=lambda p: (p.gross_kg(catalog), p.pallet_id),
    )
    removed = []
    while len(light) >= 2:
        target, donor = light[0], light[1]
        room = MAX_GROSS_KG[target.base] - target.gross_kg(catalog)
        if donor.net_kg(catalog) > room:
            break
        for code, qty in list(donor.items.items()):
            target.load(code, qty)
        manifest.remove_pallet(donor.pallet_id)
        removed.append(donor.pallet_id)
        light = sorted(
            (p for p in light if p is not donor and p.gross_kg(catalog) < threshold_kg),
            key=lambda p: (p.gross_kg(catalog), p.pallet_id),
        )
    return removed


def assign_trucks(manifest, catalog, truck_limit_kg=Decimal("24000"), hazmat_separate=True):
    """First-fit decreasing by gross weight; hazmat pallets ride in their own trucks."""
    trucks = []
    order = sorted(manifest.pallets, key=lambda p: (-p.gross_kg(catalog), p.pallet_id))
    for pallet in order:
        kg = pallet.gross_kg(catalog)
        hazardous = bool(pallet.hazmat(catalog))
        for truck in trucks:
            if truck["hazmat"] == (hazardous and hazmat_separate) and truck["kg"] + kg <= truck_limit_kg:
                truck["pallets"].append(pallet.pallet_id)
                truck["kg"] += kg
                break
        else:
            trucks.append({"pallets": [pallet.pallet_id], "kg": kg, "hazmat": hazardous and hazmat_separate})
    return trucks


def empty_base_weight(base):
    return TARE_KG[base]
