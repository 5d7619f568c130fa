from caps import cap_reached_at, charges, statement
from fares import fare, is_peak, zones_travelled
from network import stations_in_zone
from refunds import correct_incomplete, delay_refund
from taps import journeys, parse_taps
from travelcards import advise


def test_zones_travelled_counts_both_ends():
    assert zones_travelled("CEN", "MKT") == 1
    assert zones_travelled("CEN", "RIV") == 2
    assert zones_travelled("RIV", "HIL") == 3
    assert zones_travelled("AIR", "CEN") == 6


def test_stations_by_zone():
    assert stations_in_zone(1) == ["CEN", "MKT"]
    assert stations_in_zone(5) == []


def test_peak_windows():
    assert is_peak(8 * 60) and not is_peak(12 * 60) and not is_peak(8 * 60, weekday=False)


def test_single_fares():
    assert fare("CEN", "MKT", 8 * 60) == 280
    assert fare("CEN", "PRK", 12 * 60) == 300
    assert fare("HIL", "AIR", 17 * 60) == 390


def test_journeys_from_taps():
    taps = parse_taps([
        "C1 CEN 08:05 in", "C1 PRK 08:40 out",
        "C1 PRK 17:10 in", "C1 CEN 17:45 out",
        "C2 RIV 10:00 in",
    ])
    js = journeys(taps)
    assert [(j.card, j.origin, j.destination, j.pence) for j in js] == [
        ("C1", "CEN", "PRK", 390), ("C1", "PRK", "CEN", 390), ("C2", "RIV", "?", 590)]


def test_daily_cap():
    taps = parse_taps([
        "C3 CEN 07:00 in", "C3 RIV 07:20 out",
        "C3 RIV 12:00 in", "C3 CEN 12:20 out",
        "C3 CEN 13:00 in", "C3 RIV 13:20 out",
        "C3 RIV 18:00 in", "C3 CEN 18:20 out",
    ])
    js = journeys(taps)
    assert charges(js) == {"C3": (900, 320)}
    assert statement("C3", js)[-1] == "total 9.00 (capped, saved 3.20)"
    assert cap_reached_at("C3", js) == 18 * 60


def test_missing_tap_out_is_corrected():
    (j,) = journeys(parse_taps(["C4 RIV 10:00 in"]))
    fixed, refund = correct_incomplete(j, "HIL")
    # Riverside (zone 2) to Hillcrest (zone 4) is a three-zone off-peak trip
    assert (fixed.pence, refund) == (300, 290)
    assert delay_refund(fixed, 35) == 150


def test_travelcard_advice():
    week = []
    daily = []
    for day in range(5):
        js = journeys(parse_taps(["C5 CEN 08:00 in", "C5 PRK 08:30 out", "C5 PRK 17:30 in", "C5 CEN 18:00 out"]))
        week.extend(js)
        daily.append(charges(js)["C5"])
    card, payg = advise("C5", week, daily)
    assert (card, payg) == (None, 5 * 780)
    busy_week, busy_daily = [], []
    for day in range(5):
        js = journeys(parse_taps(["C6 CEN 08:00 in", "C6 PRK 08:30 out", "C6 PRK 12:00 in", "C6 CEN 12:30 out",
                                  "C6 CEN 13:00 in", "C6 PRK 13:30 out", "C6 PRK 17:30 in", "C6 CEN 18:00 out"]))
        busy_week.extend(js)
        busy_daily.append(charges(js)["C6"])
    card, payg = advise("C6", busy_week, busy_daily)
    assert payg == 5 * 1060
    assert (card.low_zone, card.high_zone, card.price) == (1, 3, 4600)
