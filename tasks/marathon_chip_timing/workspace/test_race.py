from datetime import datetime, timedelta

import pytest

from codec import decode_duration, dumps, encode_duration, loads
from race import Race
from results import category_winners, gaps, places, results_table
from timing import TimingError, format_pace

GUN = datetime(2026, 4, 12, 9, 0, 0)


def t(h, m, s, ms=0):
    return GUN + timedelta(hours=h, minutes=m, seconds=s, milliseconds=ms)


def race():
    r = Race("City 10K", 10, GUN)
    r.register(101, "Ana", "F")
    r.register(102, "Ben", "M")
    r.register(103, "Cai", "M")
    r.register(104, "Dee", "F")
    r.start_mat(103, t(0, 0, 20))
    r.checkpoint(101, 5, t(0, 19, 40))
    r.finish_mat(101, t(0, 40, 2, 800))
    r.finish_mat(102, t(0, 40, 2, 300))
    r.finish_mat(103, t(0, 40, 23, 900))
    return r


def test_durations():
    assert encode_duration(timedelta(hours=1, minutes=2, seconds=3)) == "1:02:03"
    assert decode_duration("0:40:02") == timedelta(minutes=40, seconds=2)
    with pytest.raises(TimingError):
        decode_duration("40 minutes")


def test_splits_must_increase():
    r = race()
    with pytest.raises(TimingError):
        r.checkpoint(101, 7.5, t(0, 19, 0))


def test_chip_time_ranks_live_results():
    r = race()
    assert places(r.runners.values()) == {102: 1, 101: 2, 103: 3}
    assert category_winners(r.runners.values()) == {"F": 101, "M": 102}
    assert r.dnf() == [104]


def test_gaps_to_the_leader():
    assert gaps(race().runners.values()) == [(102, 0.0), (101, 0.5), (103, 1.6)]


def test_results_survive_save_and_load(tmp_path):
    r = race()
    r.save(tmp_path / "results.json")
    fresh = Race("City 10K", 10, GUN)
    fresh.load(tmp_path / "results.json")
    assert fresh.podium() == [102, 101, 103]


def test_round_trip_keeps_exact_times():
    runners = list(race().runners.values())
    assert [x.finish for x in loads(dumps(runners))] == [x.finish for x in runners]


def test_gaps_after_reload(tmp_path):
    r = race()
    r.save(tmp_path / "results.json")
    r.load(tmp_path / "results.json")
    assert gaps(r.runners.values()) == [(102, 0.0), (101, 0.5), (103, 1.6)]


def test_results_table_line():
    rows = results_table(race().runners.values(), 10)
    assert rows[0] == "  1   102 Ben          M    0:40:02.300000 4:00.2/km"
    assert format_pace(timedelta(minutes=5, seconds=30)) == "5:30.0/km"


def test_segment_paces_and_negative_split():
    from analysis import negative_split, segment_paces

    r = race()
    ana = r.runners[101]
    assert segment_paces(ana, 10) == [("0-5 km", "3:56.0/km"), ("5-10 km", "4:04.6/km")]
    assert negative_split(ana, 10) is False


def test_archive_summary_keeps_sub_second_times():
    from analysis import archive_summary

    assert archive_summary(dumps(race().runners.values()), 10) == {
        "finishers": 3, "mean_finish_s": 2403.0, "fastest_s": 2402.3, "negative_splits": [],
    }


def test_categories_and_projection():
    from timing import age_category, predicted_finish

    assert [age_category(a, "F") for a in (22, 41, 63)] == ["F", "FV40", "FV50"]
    assert round(predicted_finish(timedelta(minutes=20), 5, 10).total_seconds()) == 2502


def test_categories_of_finishers():
    from results import finishers_by_category

    r = race()
    assert finishers_by_category(r.runners.values()) == {"F": 1, "M": 2}
    assert r.categories() == ["F", "M"] and r.started() == [103]
