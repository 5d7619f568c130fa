from datetime import date, datetime
from decimal import Decimal

import pytest

import codec
from archive import ArchiveError, export_collection, import_collection
from catalogue import Artwork, Collection, Loan
from valuation import condition_summary, loan_cover, works_by_room


def collection():
    c = Collection("Musée de la Rive")
    c.add(Artwork(
        "1987.12", "Harbour at Dusk", "M. Leclerc", 1902, "oil on canvas", (81.0, 100.5), Decimal("1250000"),
        acquired=date(1987, 4, 2), tags={"impressionism", "harbour"},
        provenance=[(1902, "the artist"), (1911, "Galerie Vollmer"), (1987, "museum")],
        condition={1987: "stable", 2019: "varnish yellowing"},
    ))
    c.add(Artwork(
        "2003.4", "Bronze Hare", "A. Novak", 1961, "bronze", (31.0, 22.0, 14.5), Decimal("180000"), currency="CHF",
        provenance=[(1961, "foundry"), (2003, "museum")],
    ))
    c.loans.append(Loan("Tate Liverpool", ("1987.12", "2003.4"), date(2027, 1, 10), date(2027, 5, 2),
                        rooms={"1987.12": 4, "2003.4": 4}))
    return c


def test_codec_keeps_scalar_types():
    value = {"d": date(2026, 1, 2), "t": datetime(2026, 1, 2, 3, 4), "m": Decimal("1.10"), "s": {"b", "a"}, "p": (1, 2)}
    assert codec.loads(codec.dumps(value)) == value


def test_codec_keeps_int_keys():
    assert codec.loads(codec.dumps({1987: "stable"})) == {1987: "stable"}


def test_export_round_trip_keeps_works():
    back = import_collection(export_collection(collection()))
    work = back.works["1987.12"]
    assert work.dimensions_cm == (81.0, 100.5)
    assert work.valuation == Decimal("1250000") and work.tags == {"impressionism", "harbour"}
    assert work.condition[2019] == "varnish yellowing"
    assert condition_summary(work) == {"latest": "varnish yellowing", "year": 2019, "span_years": 32}


def test_export_round_trip_keeps_provenance():
    original = collection()
    back = import_collection(export_collection(original))
    assert back.works["1987.12"].provenance == original.works["1987.12"].provenance
    assert back.works["1987.12"].previous_owner(1950) == "Galerie Vollmer"


def test_round_trip_is_stable():
    once = export_collection(collection())
    assert export_collection(import_collection(once)) == once


def test_loans_survive_and_insure():
    back = import_collection(export_collection(collection()))
    (loan,) = back.loans
    assert back.on_loan(date(2027, 2, 1)) == ["1987.12", "2003.4"]
    assert works_by_room(loan) == {4: ["1987.12", "2003.4"]}
    # (1,250,000 + 180,000 * 1.04) * 1.10 in EUR, then into GBP at 1.17
    assert loan_cover(back, loan, "GBP") == Decimal("1351213.68")


def test_tampered_export_is_refused():
    text = export_collection(collection()).replace("Harbour", "Harb0ur")
    with pytest.raises(ArchiveError, match="checksum"):
        import_collection(text)


def test_version_1_exports_are_upgraded():
    body = codec.dumps({"name": "old", "works": [{
        "accession": "1.1", "title": "t", "artist": "a", "year": 1900, "medium": "ink", "dimensions_cm": (10, 10),
        "value": "5000", "acquired": None, "tags": set(), "provenance": [], "condition": {},
    }], "loans": []})
    from archive import _digest

    text = codec.dumps({"format": "collection-export", "version": 1, "sha": _digest(body), "body": body})
    assert import_collection(text).works["1.1"].valuation == Decimal("5000")
