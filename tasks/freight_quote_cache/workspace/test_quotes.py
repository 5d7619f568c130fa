from decimal import Decimal

import pytest

from consolidate import slot_plan, slots_needed
from parcels import Parcel, parse_parcel
from quotes import Lane, QuoteService
from rates import UnknownLane

DE_FR = Lane("DE", "FR")


def test_parse_and_billable_weight():
    light = parse_parcel("60x40x40 3.2kg A-1")
    assert light.volumetric_kg == Decimal("19.2")
    assert light.billable_kg == Decimal("19.2")
    dense = parse_parcel("30x20x15 9kg")
    assert dense.billable_kg == Decimal("9.0")
    with pytest.raises(ValueError):
        parse_parcel("60x40 3kg")


def test_zone_scales_the_rate_card():
    service = QuoteService()
    parcel = parse_parcel("30x20x15 2kg")
    domestic = service.quote(Lane("DE", "DE"), parcel)
    assert (domestic.net, domestic.surcharge, domestic.total) == (Decimal("6.60"), Decimal("0.56"), Decimal("7.16"))
    assert service.quote(DE_FR, parcel).net == Decimal("8.25")
    with pytest.raises(UnknownLane):
        service.quote(Lane("DE", "US"), parcel)


def test_repeat_quotes_hit_the_cache():
    service = QuoteService()
    parcel = parse_parcel("40x30x20 5kg")
    first = service.quote(DE_FR, parcel)
    again = service.quote(DE_FR, parse_parcel("40x30x20 5kg"))
    assert again == first
    assert service.cache_info()[:3] == (1, 1, 1)


def test_express_costs_more_than_economy():
    service = QuoteService()
    parcel = parse_parcel("40x30x20 5kg")
    assert service.quote(DE_FR, parcel, "express").total > service.quote(DE_FR, parcel, "economy").total


def test_heavier_parcel_in_the_same_carton_costs_more():
    service = QuoteService()
    light = service.quote(DE_FR, parse_parcel("40x30x20 4kg L"))
    heavy = service.quote(DE_FR, parse_parcel("40x30x20 18kg H"))
    assert heavy.billable_kg == Decimal("18.0")
    assert heavy.total > light.total, f"18 kg quoted {heavy.total}, 4.8 kg billable quoted {light.total}"


def test_bulk_order_total():
    service = QuoteService()
    parcels = [parse_parcel(t) for t in ("40x30x20 2kg", "40x30x20 11kg", "30x20x15 1kg", "40x30x20 7.5kg")]
    # net: 4.8 kg -> 11.23, 11 kg -> 17.81, 1.8 kg -> 8.04, 7.5 kg -> 14.09; surcharges 0.95 + 1.51 + 0.68 + 1.20
    assert service.order_total(DE_FR, parcels) == Decimal("55.51")


def test_slot_plan_groups_parcels_by_carton():
    parcels = [Parcel(40, 30, 20, Decimal(w)) for w in ("2", "11", "7.5")] + [Parcel(60, 40, 40, Decimal("20"))]
    plan = slot_plan(parcels)
    assert [(line.carton, line.parcels, line.slots) for line in plan] == [((60, 40, 40), 1, 1), ((40, 30, 20), 3, 1)]
    assert plan[1].weight_kg == Decimal("20.5")
    assert slots_needed(parcels * 5) == 3
