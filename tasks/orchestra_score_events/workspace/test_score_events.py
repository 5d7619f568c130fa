from arrange import doubled, merge, out_of_range, transposed
from events import decode_part, decode_score, encode_part, encode_score
from notes import name, number
from playback import bar_and_beat, cue_sheet, duration_seconds, rehearsal_marks, roll
from score import Score


def waltz():
    s = Score("Harbour Waltz", tempo_bpm=90)
    melody = s.part("violin", 0)
    melody.add(0, 1, "E5").add(1, 1, "D5").add(2, 1, "C5").add(3, 3, "G4")
    bass = s.part("cello", 1)
    bass.add(0, 3, "C3").add(3, 3, "G2")
    return s


def test_note_numbers():
    assert number("C4") == 60 and number("A4") == 69 and name(61) == "C#4"


def test_part_round_trip_in_order():
    part = waltz().parts[0]
    assert decode_part("violin", encode_part(part)).notes == part.sorted_notes()


def test_chord_written_in_any_order():
    s = Score("chords")
    piano = s.part("piano", 2)
    piano.add(1, 1, "G4").add(0, 1, "C4").add(0, 1, "E4").add(1, 1, "B4")
    back = decode_part("piano", encode_part(piano))
    assert back.notes == piano.sorted_notes()
    assert back.channel == 2


def test_score_round_trip_keeps_timing():
    s = waltz()
    s.parts[0].add(6, 2, "C5")
    s.parts[0].add(5, 1, "A4")
    back = decode_score(encode_score(s))
    assert [p.name for p in back.parts] == ["violin", "cello"]
    assert [p.notes for p in back.parts] == [p.sorted_notes() for p in s.parts]
    assert duration_seconds(back) == duration_seconds(s) == 5.333


def test_cues_and_roll():
    s = waltz()
    s.part("flute", 3).add(2, 1, "G5")
    assert cue_sheet(s) == {"violin": 0.0, "cello": 0.0, "flute": 1.333}
    assert roll(s.parts[1], s) == ["  0.00s C3   2.00s", "  2.00s G2   2.00s"]
    assert bar_and_beat(4 * 480) == (2, 2)
    assert rehearsal_marks(s, every_bars=1) == [("A", 0.0), ("B", 2.0)]


def test_arranging_and_saving_a_reduction():
    s = waltz()
    assert out_of_range(transposed(s.parts[0], -12), "violin") == []
    assert out_of_range(transposed(s.parts[0], -14), "violin") == ["F3"]
    assert out_of_range(transposed(s.parts[1], -14)) == ["A#1", "F1"]
    reduction = merge([doubled(s.parts[0]), s.parts[1]], "piano", 0)
    assert len(reduction.notes) == 10
    back = decode_part("piano", encode_part(reduction))
    assert back.notes == reduction.sorted_notes()
