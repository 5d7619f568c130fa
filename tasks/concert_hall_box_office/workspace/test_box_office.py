from datetime import date

import pytest

from box_office import best_available, place_order, refund
from charts import sales_sheet, seating_chart
from events import Event, SeatTaken
from season import Season


def test_selling_seats_at_section_prices():
    e = Event("Brahms 4", date(2027, 3, 5))
    order = place_order(e, "ann", ["STALLS-A1", "STALLS-A2", "BOX-A1"])
    assert (order.tickets, order.total) == (15000, 15150)
    with pytest.raises(SeatTaken):
        place_order(e, "bob", ["STALLS-A3", "STALLS-A1"])
    assert "STALLS-A3" not in e.sold


def test_best_available_adjacent_seats():
    e = Event("Quartet night", date(2027, 3, 6))
    place_order(e, "ann", ["CIRCLE-A2"])
    assert best_available(e, "CIRCLE", 3) == ["CIRCLE-A3", "CIRCLE-A4", "CIRCLE-A5"]
    e.hold(["CIRCLE-A3"])
    assert best_available(e, "CIRCLE", 3) == ["CIRCLE-B1", "CIRCLE-B2", "CIRCLE-B3"]


def test_refund_keeps_the_fee():
    e = Event("Organ recital", date(2027, 3, 7))
    order = place_order(e, "cy", ["CIRCLE-B1", "CIRCLE-B2"])
    assert refund(order) == 7000
    assert e.revenue() == 0


def test_promotion_applies_to_its_own_event_only():
    season = Season("Spring 2027")
    gala = season.add("Gala", date(2027, 4, 1))
    matinee = season.add("Matinee", date(2027, 4, 2))
    matinee.pricing.discount("STALLS", 20, "matinee 20% off")
    assert season.price_list("STALLS") == {"Gala": 4500, "Matinee": 3600}
    assert gala.pricing.promotions == []


def test_new_event_starts_at_list_prices():
    season = Season("Spring 2027")
    first = season.add("Opening night", date(2027, 4, 3))
    first.pricing.surcharge_all(500, "opening night")
    later = season.add("Second night", date(2027, 4, 4))
    assert later.price_of("CIRCLE-A1") == 3500
    place_order(later, "dee", ["CIRCLE-A1", "CIRCLE-A2"])
    place_order(first, "eve", ["CIRCLE-A1"])
    assert season.takings() == {"Opening night": 4000, "Second night": 7000}


def test_custom_price_table():
    season = Season("Summer")
    proms = season.add("Prom 1", date(2027, 7, 20), prices={"STALLS": 800, "CIRCLE": 1200, "BOX": 2500})
    assert proms.price_of("STALLS-D6") == 800
    assert proms.pricing.describe() == "BOX 25.00, CIRCLE 12.00, STALLS 8.00"


def test_chart_and_sales_sheet():
    e = Event("Late jazz", date(2027, 5, 1))
    place_order(e, "fi", ["BOX-A1", "BOX-A2"])
    e.hold(["BOX-A4"])
    assert seating_chart(e, "BOX") == ["A XX.H"]
    assert sales_sheet(e) == [
        "STALLS   0/24      0.00",
        "CIRCLE   0/10      0.00",
        "BOX      2/4     120.00",
        "TOTAL    2/38    120.00",
    ]
