from datetime import date

import pytest

from batches import Batch, Shelf
from charges import monthly_claim
from dispensing import CannotDispense, Pharmacy
from export import dump, load
from interactions import interactions
from labels import label
from prescriptions import Prescription

RXS = [
    Prescription("RX1001", "Mo Patel", "Amoxicillin", "500mg", "1 capsule three times daily", 21, 0, date(2027, 1, 4), "Dr Hale"),
    Prescription("RX1002", "Jo Ng", "Warfarin", "3mg", "1 tablet once daily", 28, 5, date(2027, 1, 4), "Dr Hale",
                 "take at 6pm, check INR weekly"),
    Prescription("RX1003", "Jo Ng", "Aspirin", "75mg", "1 tablet once daily", 28, 2, date(2027, 1, 5), "Dr Ives"),
]


def test_days_supply():
    assert [rx.days_supply() for rx in RXS] == [7, 28, 28]
    with pytest.raises(ValueError):
        Prescription("RX9", "A", "B", "1mg", "take some", 1, 0, date(2027, 1, 1), "Dr X")


def test_export_has_a_header_and_a_row_each():
    lines = dump(RXS).splitlines()
    assert lines[0].startswith("rx_id,patient,drug")
    assert len(lines) == 4


def test_round_trip():
    assert load(dump(RXS)) == RXS


def test_round_trip_keeps_notes():
    back = {rx.rx_id: rx for rx in load(dump(RXS))}
    assert back["RX1002"].notes == "take at 6pm, check INR weekly"


def test_dispensing_repeats_and_stock():
    shop = Pharmacy()
    shop.receive("Warfarin", "3mg", 100)
    rx = RXS[1]
    assert shop.dispense(rx, date(2027, 1, 4)) == 5
    assert shop.repeats_left(rx) == 5
    with pytest.raises(CannotDispense, match="in stock"):
        for _ in range(4):
            shop.dispense(rx, date(2027, 2, 1))
    assert shop.stock[("Warfarin", "3mg")] == 16


def test_interactions_and_labels():
    assert interactions(RXS[2], RXS) == ["Aspirin with Warfarin: bleeding risk"]
    assert label(RXS[1]) == [
        "WARFARIN 3mg  x28",
        "Take 1 tablet once daily",
        "For: Jo Ng",
        "Note: take at 6pm, check INR weekly",
        "Riverside Pharmacy",
    ]


def test_first_expiring_batches_are_used_first():
    shelf = Shelf({("Warfarin", "3mg"): 60})
    shelf.add(Batch("Warfarin", "3mg", "L2", date(2027, 6, 1), 30))
    shelf.add(Batch("Warfarin", "3mg", "L1", date(2027, 3, 1), 20))
    shelf.add(Batch("Warfarin", "3mg", "L0", date(2026, 12, 1), 10))
    today = date(2027, 1, 10)
    assert shelf.pick("Warfarin", "3mg", 28, today) == [("L1", 20), ("L2", 8)]
    assert shelf.expired(today) == ["L0"]
    assert shelf.reorder(today) == [("Warfarin", "3mg", 38)]


def test_monthly_claim_with_exemptions():
    patients = {"Mo Patel": (date(1990, 5, 1), False), "Jo Ng": (date(1960, 2, 1), False)}
    dispensed = [(RXS[0], date(2027, 1, 4)), (RXS[1], date(2027, 1, 4)), (RXS[2], date(2027, 1, 5))]
    assert monthly_claim(dispensed, patients) == {"Jo Ng": (2, 0), "Mo Patel": (1, 990)}
