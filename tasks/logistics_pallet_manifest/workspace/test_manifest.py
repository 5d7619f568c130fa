from decimal import Decimal as D

import pytest

from cargo import Sku, SkuCatalog
from customs import declaration_text
from manifest import Manifest, ManifestError
from pallets import Pallet
from planner import assign_trucks, consolidate

CATALOG = SkuCatalog([
    Sku("TIN-500", "tinned tomatoes 500g", D("0.55"), D("0.80"), "2002.10"),
    Sku("OIL-5L", "olive oil 5 l", D("4.8"), D("22.00"), "1509.20"),
    Sku("LIGHTER", "gas lighters", D("0.02"), D("0.30"), "9613.10", hazmat_class="2.1"),
])


def pallet(pid, **items):
    p = Pallet(pid)
    for code, qty in items.items():
        p.load(code.replace("_", "-"), qty)
    return p


def filed_manifest():
    m = Manifest("SHP-77", "Valencia", "Rotterdam")
    m.add_pallet(pallet("P1", TIN_500=1200))
    m.add_pallet(pallet("P2", OIL_5L=150))
    m.add_pallet(pallet("P3", OIL_5L=20))
    m.add_pallet(pallet("P4", TIN_500=200))
    return m.file()


def test_totals():
    t = filed_manifest().totals(CATALOG)
    # 4 x 25 tare + 660 + 720 + 96 + 110 net
    assert t == {"pallets": 4, "gross_kg": D("1686.00"), "value": D("4860.00")}


def test_filed_manifest_cannot_change():
    m = filed_manifest()
    with pytest.raises(ManifestError):
        m.add_pallet(pallet("P9", TIN_500=1))


def test_revision_leaves_filed_manifest_alone():
    filed = filed_manifest()
    draft = filed.revise()
    draft.add_pallet(pallet("P5", LIGHTER=5000))
    draft.remove_pallet("P1")
    assert [p.pallet_id for p in filed.pallets] == ["P1", "P2", "P3", "P4"]
    assert [p.pallet_id for p in draft.pallets] == ["P2", "P3", "P4", "P5"]
    assert draft.changes_since(filed) == {"added": ["P5"], "removed": ["P1"], "changed": []}


def test_consolidating_a_revision_keeps_the_filed_declaration():
    filed = filed_manifest()
    before = declaration_text(filed, CATALOG)
    draft = filed.revise()
    assert consolidate(draft, CATALOG) == ["P4"]
    assert draft.pallet("P3").items == {"OIL-5L": 20, "TIN-500": 200}
    assert filed.pallet("P3").items == {"OIL-5L": 20}
    assert declaration_text(filed, CATALOG) == before
    assert draft.changes_since(filed) == {"added": [], "removed": ["P4"], "changed": ["P3"]}


def test_declaration_lines():
    assert declaration_text(filed_manifest(), CATALOG).splitlines() == [
        "SHP-77 r1 Valencia->Rotterdam",
        "1509.20 qty 170 net 816.0 kg value 3740.00",
        "2002.10 qty 1400 net 770.00 kg value 1120.00",
    ]


def test_trucks_keep_hazmat_apart():
    draft = filed_manifest().revise()
    draft.add_pallet(pallet("P5", LIGHTER=5000))
    trucks = assign_trucks(draft, CATALOG, truck_limit_kg=D("1500"))
    assert [(t["pallets"], t["hazmat"]) for t in trucks] == [
        (["P2", "P1"], False), (["P4", "P3"], False), (["P5"], True)]


def test_sealed_pallet_refuses_more_load():
    p = pallet("P1", TIN_500=10)
    p.sealed = True
    with pytest.raises(PermissionError):
        p.load("TIN-500", 1)
