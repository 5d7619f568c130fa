import pytest

from billing import billable_days
from contracts import Contract
from desk import DeskError, RentalDesk
from fleet import Car, Fleet, NoCarAvailable
from reports import format_chf, overdue, revenue, utilization


def make_desk():
    return RentalDesk(Fleet([
        Car("ZH-4410", "compact", "ZRH", 12_000),
        Car("ZH-9001", "van", "ZRH", 40_500),
        Car("GE-1207", "compact", "GVA", 8_000),
    ]))


def test_billable_days():
    assert [billable_days(h) for h in (2, 24, 24.5, 71)] == [1, 1, 2, 3]


def test_rent_and_invoice():
    desk = make_desk()
    c = desk.rent("m.keller", "ZRH", "compact", "2026-07-01 09:00", "2026-07-03 09:00")
    bill = desk.return_car(c.contract_id, "2026-07-03 08:30", "ZRH", 12_610)
    assert (bill.days, bill.rental_cents, bill.extra_km_cents, bill.late_cents) == (2, 9_800, 110 * 35, 0)


def test_late_return_and_fuel():
    desk = make_desk()
    c = desk.rent("a.weber", "ZRH", "van", "2026-07-01 09:00", "2026-07-02 09:00")
    bill = desk.return_car(c.contract_id, "2026-07-02 13:00", "ZRH", 40_700, fuel_eighths_missing=2)
    assert (bill.days, bill.late_cents, bill.fuel_cents, bill.total_cents) == (2, 9_900, 2_400, 22_200)


def test_second_customer_gets_another_car():
    desk = make_desk()
    desk.rent("m.keller", "ZRH", "van", "2026-07-01 09:00", "2026-07-02 09:00")
    with pytest.raises(NoCarAvailable, match="no van free at ZRH"):
        desk.rent("j.meier", "ZRH", "van", "2026-07-01 10:00", "2026-07-02 10:00")


def test_returned_car_is_available_again():
    desk = make_desk()
    first = desk.rent("m.keller", "ZRH", "van", "2026-07-01 09:00", "2026-07-02 09:00")
    desk.return_car(first.contract_id, "2026-07-02 08:00", "ZRH", 40_800)
    second = desk.rent("j.meier", "ZRH", "van", "2026-07-02 10:00", "2026-07-03 10:00")
    assert second.plate == "ZH-9001"
    assert desk.rented_plates() == {"ZH-9001"} and len(desk.active) == 1


def test_extended_rental_can_be_returned():
    desk = make_desk()
    c = desk.rent("m.keller", "GVA", "compact", "2026-07-01 09:00", "2026-07-02 09:00")
    desk.extend(c.contract_id, "2026-07-04 09:00")
    bill = desk.return_car(c.contract_id, "2026-07-04 09:00", "ZRH", 8_500)
    assert bill.days == 3 and bill.late_cents == 0
    assert desk.rented_plates() == set()
    assert desk.rent("l.rossi", "ZRH", "compact", "2026-07-05 09:00", "2026-07-06 09:00").plate == "GE-1207"


def test_open_rentals_and_errors():
    desk = make_desk()
    c = desk.rent("m.keller", "ZRH", "compact", "2026-07-01 09:00", "2026-07-02 09:00")
    assert desk.open_rentals() == [c]
    with pytest.raises(DeskError, match="already has an open rental"):
        desk.rent("m.keller", "GVA", "compact", "2026-07-01 10:00", "2026-07-02 10:00")
    with pytest.raises(DeskError, match="later"):
        desk.extend(c.contract_id, "2026-07-01 12:00")
    with pytest.raises(DeskError, match="below"):
        desk.return_car(c.contract_id, "2026-07-02 09:00", "ZRH", 11_000)
    with pytest.raises(ValueError, match="end after"):
        Contract.open("X", "y", "2026-07-02 09:00", "2026-07-01 09:00", 0)


def test_morning_report():
    desk = make_desk()
    a = desk.rent("m.keller", "ZRH", "compact", "2026-07-01 09:00", "2026-07-02 09:00")
    desk.rent("a.weber", "ZRH", "van", "2026-07-01 09:00", "2026-07-03 09:00")
    assert overdue(desk, "2026-07-02 15:30") == [(a.contract_id, "ZH-4410", "m.keller", 6.5)]
    assert utilization(desk) == {"GVA": (0, 1), "ZRH": (2, 2)}
    assert desk.fleet.categories_at("ZRH") == ["compact", "van"]
    assert revenue(desk) == {"total": 0}
    assert format_chf(1_234_567) == "CHF 12'345.67"
