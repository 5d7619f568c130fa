from decimal import Decimal

import pytest

from fulfillment import book, split
from manifest import manifest, pickup_cost
from rates import OverWeight, shipment_cost
from shipment import Parcel, Shipment


def order_shipment():
    return Shipment("S100", "Lyon", [Parcel("p1", 2.5), Parcel("p2", 31.0), Parcel("p3", 1.25)])


def test_split_moves_parcels():
    s = order_shipment()
    child = split(s, {"p2"})
    assert [p.parcel_id for p in s.parcels] == ["p1", "p3"]
    assert [p.parcel_id for p in child.parcels] == ["p2"]
    assert (s.weight(), child.weight()) == (3.75, 31.0)


def test_split_needs_parcels_on_both_sides():
    with pytest.raises(ValueError):
        split(order_shipment(), {"p1", "p2", "p3"})


def test_booked_shipment_keeps_its_tracking_after_split():
    s = order_shipment()
    tracking = book(s, "DHL")
    child = split(s, {"p2"})
    assert child.carrier_refs["tracking"] != tracking
    lines = manifest([s, child]).splitlines()
    assert tracking in lines[0], "\n".join(lines)


def test_event_history_of_each_shipment():
    s = order_shipment()
    child = split(s, {"p2"})
    assert s.events == ["1 parcel(s) moved to S100-2"], s.events
    assert child.events == ["split from S100"], child.events


def test_oversized_parcel_goes_by_freight():
    s = Shipment("S200", "Bastia", [Parcel("p1", 2.5), Parcel("p2", 48.0)])
    book(s, "DHL")
    with pytest.raises(OverWeight):
        shipment_cost(s)
    freight = split(s, {"p2"})
    freight.carrier_refs["carrier"] = "FREIGHT"
    # DHL: one 2-10 kg parcel 11.50 + remote surcharge 4.00; freight flat 89.00
    assert pickup_cost([s, freight]) == Decimal("104.50")
