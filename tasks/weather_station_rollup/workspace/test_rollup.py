import pytest

import rollup
from report import bulletin, quality_controlled, rain_totals, with_manual_entries
from stations import ReadingStore

CSV = """station,day,hour,temp_c,rain_mm
KEW,2026-03-01,0,4.0,0.0
KEW,2026-03-01,1,3.5,0.2
KEW,2026-03-01,2,99.9,0.0
KEW,2026-03-01,4,2.5,1.0
KEW,2026-03-02,0,6.0,0.0
"""


@pytest.fixture(autouse=True)
def store():
    s = ReadingStore()
    s.upload("KEW", CSV)
    rollup.use_store(s)
    return s


def test_summary_of_raw_readings():
    s = rollup.daily_summary("KEW", "2026-03-01")
    assert s["hours"] == 4
    assert s["max_c"] == 99.9
    assert s["rain_mm"] == 1.2


def test_parsing_is_cached(store):
    rollup.daily_summary("KEW", "2026-03-01")
    rollup.daily_summary("KEW", "2026-03-01")
    assert store.parses == 1


def test_quality_control_drops_spikes():
    qc = quality_controlled("KEW", "2026-03-01")
    assert [r.hour for r in qc] == [0, 1, 4]


def test_quality_control_leaves_raw_summary_alone():
    quality_controlled("KEW", "2026-03-01")
    assert rollup.daily_summary("KEW", "2026-03-01")["hours"] == 4


def test_manual_entries_fill_missing_hour():
    rows = with_manual_entries("KEW", "2026-03-01", [(3, 3.0, 0.0)])
    assert [r.hour for r in rows] == [0, 1, 2, 3, 4]


def test_manual_entries_twice_for_two_drafts():
    first = with_manual_entries("KEW", "2026-03-01", [(3, 3.0, 0.0)])
    second = with_manual_entries("KEW", "2026-03-01", [(3, 2.8, 0.1)])
    assert len(first) == len(second) == 5
    assert second[3].temp_c == 2.8


def test_bulletin_after_drafts():
    with_manual_entries("KEW", "2026-03-01", [(3, 3.0, 0.0)])
    quality_controlled("KEW", "2026-03-01")
    assert bulletin(["KEW", "LHR"], "2026-03-01") == "KEW: 2.5..99.9 C, 1.2 mm over 4 h\nLHR: no data"


def test_rain_totals_over_two_days():
    totals, wettest = rain_totals("KEW", ["2026-03-01", "2026-03-02"])
    assert totals == {"2026-03-01": 1.2, "2026-03-02": 0.0}
    assert wettest == ("2026-03-01", 4)
