from datetime import datetime, timedelta, timezone

import pytest

from billing import ReadingGap, bill, daily_profile, intervals
from codec import dump_readings, load_readings, merge_files, split_by_meter
from meters import Meter, half_hourly
from quality import clean
from statements import statement, total_due_pence

LISBON = Meter("MTR-LIS-1", utc_offset_hours=0)
BERLIN = Meter("MTR-BER-7", utc_offset_hours=1)
ATHENS = Meter("MTR-ATH-3", utc_offset_hours=2, tariff="flat")


def evening(meter):
    """15:00 to 17:00 local time, 0.4 kWh each half hour."""
    start = datetime(2026, 1, 14, 15, 0, tzinfo=meter.tz)
    return half_hourly(meter, start, [1000.0, 1000.4, 1000.8, 1001.2, 1001.6])


def test_tariff_description():
    from tariffs import describe

    assert describe("flat") == "flat 26.5p"
    assert describe("tou").startswith("night 23-7 9.5p, day 7-16 24.0p")


def test_intervals_from_registers():
    assert [round(u, 3) for _, _, u in intervals(evening(LISBON))] == [0.4, 0.4, 0.4, 0.4]


def test_bill_by_local_band():
    assert bill(BERLIN, evening(BERLIN)) == {"kwh": {"day": 0.8, "peak": 0.8}, "pence": {"day": 19.2, "peak": 30.4},
                                             "total_pence": 49.6}


def test_round_trip_keeps_the_instant():
    readings = evening(BERLIN)
    back = load_readings(dump_readings(readings))
    assert [r.at for r in back] == [r.at for r in readings]


def test_billing_after_export_matches_billing_before():
    for meter in (LISBON, BERLIN, ATHENS):
        readings = evening(meter)
        assert bill(meter, load_readings(dump_readings(readings))) == bill(meter, readings), meter.meter_id


def test_profile_after_export_uses_local_hours():
    back = load_readings(dump_readings(evening(BERLIN)))
    assert daily_profile(BERLIN, back) == {15: 0.8, 16: 0.8}


def test_gap_is_reported():
    readings = evening(LISBON)
    with pytest.raises(ReadingGap):
        intervals(readings[:2] + readings[3:])


def test_file_header_is_checked():
    with pytest.raises(ValueError):
        load_readings("id,when,kwh\n")
    text = dump_readings(evening(LISBON)[:1])
    assert text.splitlines()[0] == "meter_id,timestamp,register_kwh"


def test_utc_readings_load_unchanged():
    start = datetime(2026, 1, 14, 12, 0, tzinfo=timezone.utc)
    readings = half_hourly(LISBON, start, [5.0, 5.25])
    back = load_readings(dump_readings(readings))
    assert back[1].at - back[0].at == timedelta(minutes=30)
    assert back[0].at == start


def test_cleaning_fills_gaps_and_drops_duplicates():
    readings = evening(BERLIN)
    dirty = readings[:2] + readings[1:2] + readings[4:]
    cleaned, report = clean(dirty)
    assert report.duplicates == 1
    assert [r.register_kwh for r in cleaned] == [1000.0, 1000.4, 1000.8, 1001.2, 1001.6]
    assert report.estimated == [r.at for r in readings[2:4]]


def test_statement_for_an_imported_file():
    back = load_readings(dump_readings(evening(BERLIN)))
    assert statement(BERLIN, back, days=1) == [
        "Meter MTR-BER-7 (tou)",
        "  day        0.800 kWh     0.19",
        "  peak       0.800 kWh     0.30",
        "  standing charge 1 days     0.53",
        "  VAT 5%     0.05",
        "  total     1.08",
    ]
    assert total_due_pence(BERLIN, back, days=1) == 107.73


def test_split_and_merge_files():
    text = merge_files([dump_readings(evening(LISBON)), dump_readings(evening(ATHENS))])
    parts = split_by_meter(text)
    assert sorted(parts) == ["MTR-ATH-3", "MTR-LIS-1"]
    assert load_readings(parts["MTR-LIS-1"])[0].register_kwh == 1000.0
    assert len(load_readings(parts["MTR-ATH-3"])) == 5
