import pytest

from cues import CueError, format_timestamp, parse_timestamp
from editor import SubtitleEditor
from srt import dumps, loads

SAMPLE = """1
00:00:01,000 --> 00:00:03,500
Where were you?

2
00:00:04,000 --> 00:00:06,000
Out.

3
00:00:05,500 --> 00:00:07,000
Out where?
"""


def test_timestamps_round_trip():
    assert parse_timestamp("01:02:03,004") == 3723004
    assert format_timestamp(3723004) == "01:02:03,004"
    with pytest.raises(CueError):
        parse_timestamp("00:61:00,000")


def test_srt_round_trip():
    assert dumps(loads(SAMPLE)) == SAMPLE


def test_problems_are_reported():
    ed = SubtitleEditor(SAMPLE)
    assert ed.problems()["overlaps"] == [("Out.", "Out where?")]


def test_shift_moves_every_cue():
    ed = SubtitleEditor(SAMPLE)
    assert ed.shift(2000).starts() == [3000, 6000, 7500]


def test_shift_before_zero_is_rejected():
    ed = SubtitleEditor(SAMPLE)
    with pytest.raises(CueError):
        ed.shift(-5000)


def test_shifted_copy_leaves_the_original_alone():
    track = loads(SAMPLE)
    track.shifted(500)
    assert track.starts() == [1000, 4000, 5500]


def test_undo_restores_timing_after_shift():
    ed = SubtitleEditor(SAMPLE)
    ed.shift(1500)
    assert ed.undo()
    assert ed.export() == SAMPLE


def test_undo_restores_timing_after_resync():
    ed = SubtitleEditor(SAMPLE)
    ed.resync(1.001)
    assert ed.track.starts() == [1001, 4004, 5505]
    ed.undo()
    assert ed.track.starts() == [1000, 4000, 5500]


def test_trim_then_undo():
    ed = SubtitleEditor(SAMPLE)
    assert ed.trim(3000, 6500).texts() == ["Out."]
    ed.undo()
    assert len(ed.track) == 3


def test_two_shifts_then_two_undos():
    ed = SubtitleEditor(SAMPLE)
    ed.shift(100)
    ed.shift(100)
    ed.undo()
    assert ed.track.starts() == [1100, 4100, 5600]
    ed.undo()
    assert ed.track.starts() == [1000, 4000, 5500]


def test_vtt_export_after_shift():
    ed = SubtitleEditor(SAMPLE, language="en")
    ed.shift(250)
    text = ed.export_vtt(align="center")
    assert text.splitlines()[:4] == ["WEBVTT - en", "", "c1", "00:00:01.250 --> 00:00:03.750 align:center"]
    assert ed.history_depth() == 1


def test_reading_speed_of_original_after_resync_and_undo():
    ed = SubtitleEditor(SAMPLE)
    ed.resync(0.5)
    ed.undo()
    assert [row["cps"] for row in ed.reading_speed()] == [6.0, 2.0, 6.7]


def test_append_second_part():
    ed = SubtitleEditor(SAMPLE)
    ed.append("1\n00:00:00,500 --> 00:00:01,000\nLater.\n", gap_ms=1000)
    assert ed.track.starts() == [1000, 4000, 5500, 8500]
    assert ed.track.total_duration() == 8000
