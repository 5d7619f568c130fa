from decimal import Decimal

import pytest

from batches import BatchError, apparent_attenuation, days_to_settle
from cellar import Cellar, Vessel
from kegs import fill_kegs, keg_report
from duty import duty_pounds, monthly_return
from ledger import ProductionLedger
from recipes import BOOK


def ferment(batch, *gravities):
    for day, g in enumerate(gravities, 1):
        batch.record_gravity(f"d{day}", g)


def test_recipe_abv():
    assert BOOK["Harbour Pale"].target_abv() == 5.0
    assert BOOK["Tidal IPA"].target_abv() == 6.8


def test_cannot_package_while_fermenting():
    ledger = ProductionLedger("Sandbar Brewing")
    b = ledger.brew("B001", "Harbour Pale", "2027-03-01")
    ferment(b, 1.030, 1.015)
    with pytest.raises(BatchError):
        ledger.package("B001", 950)


def test_packaging_records_volume_and_losses():
    ledger = ProductionLedger("Sandbar Brewing")
    b = ledger.brew("B002", "Lighthouse Stout", "2027-03-02")
    ferment(b, 1.030, 1.017, 1.016, 1.016)
    assert (apparent_attenuation(b), days_to_settle(b)) == (73.3, 2)
    ledger.package("B002", 760)
    assert ledger.losses() == {"B002": 40}
    assert ledger.litres_by_style() == {"stout": 760}


def test_second_brewery_has_its_own_ledger():
    north = ProductionLedger("North Quay")
    b = north.brew("N001", "Tidal IPA", "2027-03-03")
    ferment(b, 1.020, 1.012, 1.012, 1.012)
    north.package("N001", 980)
    south = ProductionLedger("South Quay")
    s = south.brew("S001", "Dune Lager", "2027-03-03")
    ferment(s, 1.010, 1.008, 1.008, 1.008)
    south.package("S001", 1150)
    assert south.litres_by_style() == {"lager": 1150}
    assert north.total_litres() == 980


def test_duty():
    assert duty_pounds(1000, 5.0) == Decimal("525.25")
    assert duty_pounds(1000, 3.0) == Decimal("0.00")
    assert duty_pounds(100, 9.0, small_producer=False) == Decimal("256.50")


def test_monthly_return():
    ledger = ProductionLedger("Sandbar Brewing")
    b = ledger.brew("B010", "Harbour Pale", "2027-03-04")
    ferment(b, 1.012, 1.010, 1.010, 1.010)
    ledger.package("B010", 900)
    assert monthly_return(ledger) == ["B010 Harbour Pale 900 l 5.0% £472.73", "total £472.73"]


def test_kegs_from_a_batch():
    ledger = ProductionLedger("Sandbar Brewing")
    b = ledger.brew("B020", "Tidal IPA", "2027-03-05")
    ferment(b, 1.013, 1.012, 1.012, 1.012)
    ledger.package("B020", 985)
    kegs, to_cans = fill_kegs(b, 30, "K")
    assert (len(kegs), to_cans) == (32, 25.0)
    kegs[0].pour(0.568 * 10)
    assert kegs[0].pints_left() == 42
    assert keg_report(kegs[:2]) == ["K002: 52 pints", "K001: 42 pints"]


def test_fermenter_bookings():
    cellar = Cellar([Vessel("FV1", 1000), Vessel("FV2", 1200), Vessel("FV3", 1000)])
    assert cellar.book(BOOK["Harbour Pale"], 0, "B1") == ("FV1", 10)
    assert cellar.book(BOOK["Tidal IPA"], 5, "B2") == ("FV3", 17)
    assert cellar.book(BOOK["Lighthouse Stout"], 6, "B3") == ("FV2", 20)
    with pytest.raises(ValueError):
        cellar.book(BOOK["Dune Lager"], 8, "B4")
