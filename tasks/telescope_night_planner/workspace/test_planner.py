from astro import airmass, altitude_deg, julian_day
from nightlog import NightLog, schedule_text
from planner import fill_report, plan_night
from sites import LA_PALMA, PARANAL, SITES
from targets import parse_queue
from windows import observable_slots, peak_slot

NIGHT = (2026, 10, 12)
QUEUE = parse_queue([
    "M31       00:42:44 +41:16:09 5 60",
    "NGC253    00:47:33 -25:17:18 4 40",
    "M33       01:33:51 +30:39:37 3 30",
    "FORNAX    02:39:59 -34:26:57 2 50",
    "POLARIS   02:31:49 +89:15:51 1 20",
])
M31, NGC253, M33, FORNAX, POLARIS = QUEUE


def test_julian_day_of_j2000():
    assert julian_day(2000, 1, 1, 12) == 2451545.0
    assert sorted(SITES) == ["ORM", "PAR"] and LA_PALMA.night_end_ut() == 5.0


def test_altitude_of_the_pole_star_is_the_latitude():
    assert abs(altitude_deg(POLARIS.ra_deg, POLARIS.dec_deg, LA_PALMA.latitude, 0) - 28.76) < 1.0
    assert round(airmass(30), 3) == 2.0


def test_northern_targets_from_la_palma():
    assert len(observable_slots(M31, LA_PALMA, NIGHT)) > 30
    assert observable_slots(POLARIS, LA_PALMA, NIGHT) == []


def test_southern_site_sees_the_southern_sky():
    assert observable_slots(NGC253, PARANAL, NIGHT)[:1] == [0]
    assert observable_slots(FORNAX, PARANAL, NIGHT)[:1] == [9]
    assert observable_slots(M31, PARANAL, NIGHT) == []


def test_plan_for_la_palma():
    plan = plan_night(QUEUE, LA_PALMA, NIGHT)
    assert [b[0] for b in plan.blocks] == ["M31", "NGC253", "M33"]
    assert plan.skipped == ["FORNAX", "POLARIS"]


def test_two_sites_plan_the_same_queue():
    north = plan_night(QUEUE, LA_PALMA, NIGHT)
    south = plan_night(QUEUE, PARANAL, NIGHT)
    assert "M31" in [b[0] for b in north.blocks]
    assert [b[0] for b in south.blocks] == ["NGC253", "M33", "FORNAX"]
    assert south.skipped == ["M31", "POLARIS"]
    assert fill_report(south, PARANAL) == "PAR: 120 of 540 minutes scheduled (22%); not placed: M31, POLARIS"


def test_peak_altitude_depends_on_the_site():
    assert peak_slot(NGC253, LA_PALMA, NIGHT)[1] < 40
    assert peak_slot(NGC253, PARANAL, NIGHT)[1] > 80


def test_schedule_text_in_universal_time():
    plan = plan_night(QUEUE, PARANAL, NIGHT)
    assert schedule_text(plan, PARANAL) == [
        "PAR 2026-10-12",
        "00:00-00:40 UT  NGC253",
        "01:30-02:20 UT  FORNAX",
        "03:20-03:50 UT  M33",
    ]


def test_night_log_reports_weather_losses():
    plan = plan_night(QUEUE, LA_PALMA, NIGHT)
    log = NightLog(plan)
    log.record("M31", done=True)
    log.record("NGC253", done=False, note="cloud")
    assert log.summary() == {"done": ["M31"], "lost": {"NGC253": "cloud"}, "pending": ["M33"], "efficiency": 46}
