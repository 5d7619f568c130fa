import pytest

from booking import BookingRejected, BookingService
from manifest import Manifest, Vehicle
from store import ManifestStore
from vessels import UnknownSlot, island_hopper


@pytest.fixture
def service(tmp_path):
    return BookingService(island_hopper(), ManifestStore(str(tmp_path / "manifests")))


def test_fresh_manifest_counts_lane_usage():
    m = Manifest("S1", "MV Island Hopper")
    m.lanes[2] = [Vehicle("AB-1", 5.0, 1.6), Vehicle("AB-2", 7.5, 3.0)]
    assert m.used_length(2) == 12.5
    assert m.used_length(1) == 0


def test_fresh_manifest_cabins():
    m = Manifest("S1", "MV Island Hopper")
    m.cabins[101] = "R-1"
    assert not m.cabin_free(101)
    assert m.cabin_free(102)


def test_manifest_round_trips_through_the_store(tmp_path):
    store = ManifestStore(str(tmp_path))
    m = Manifest("S9", "MV Island Hopper", lanes={3: [Vehicle("CAR-1", 4.2, 1.5)]}, cabins={201: "R-7"})
    store.save(m)
    assert store.load("S9", Manifest.from_dict) == m


def test_tall_vehicle_goes_to_a_high_lane(service):
    assert service.book_vehicle("S1", "TRUCK", 16.5, 4.0, lane=None) == 1


def test_unknown_cabin(service):
    with pytest.raises(UnknownSlot):
        service.book_cabin("S1", "R-1", 999)


def test_cabin_cannot_be_booked_twice(service):
    service.book_cabin("S1", "R-1", 201)
    with pytest.raises(BookingRejected):
        service.book_cabin("S1", "R-2", 201)


def test_lane_fills_up_across_bookings(service):
    for i in range(10):
        assert service.book_vehicle("S2", f"CAR-{i}", 4.5, 1.5, lane=3) == 3
    with pytest.raises(BookingRejected):
        service.book_vehicle("S2", "CAR-X", 4.5, 1.5, lane=3)


def test_load_report(service):
    service.book_vehicle("S3", "VAN", 6.0, 2.0)
    service.book_vehicle("S3", "BUS", 12.0, 3.5)
    service.book_cabin("S3", "R-1", 101)
    service.add_passenger("S3", "Ada")
    assert service.load_report("S3") == {
        "vehicles": 2, "deck_used_pct": 8.6, "cabins_taken": 1, "passengers": 1,
    }


def test_sailings_are_listed(service):
    service.add_passenger("S5", "Bo")
    service.add_passenger("S4", "Cy")
    assert service.store.sailings() == ["S4", "S5"]


def test_quote_for_a_sailing(service):
    service.book_vehicle("S6", "CAMPER", 6.5, 2.8)
    service.book_cabin("S6", "R-3", 202)
    service.add_passenger("S6", "Di")
    quote = service.quote("S6")
    assert quote.lines == [("vehicle CAMPER", 81.25), ("cabin 202 (R-3)", 160.0), ("passenger Di", 18.5)]
    assert quote.total == 259.75
