"""Times in seconds for the rehearsal click track, and a simple piano-roll print."""
from notes import name
from score import TICKS_PER_QUARTER


def seconds(ticks, tempo_bpm):
    return round(ticks / TICKS_PER_QUARTER * 60 / tempo_bpm, 3)


def duration_seconds(score):
    return seconds(score.length_ticks(), score.tempo_bpm)


def cue_sheet(score):
    """Entry time of each part's first note."""
    out = {}
    for part in score.parts:
        if part.notes:
            out[part.name] = seconds(min(n.start for n in part.notes), score.tempo_bpm)
    return out


def roll(part, score):
    return [f"{seconds(n.start, score.tempo_bpm):>6.2f}s {name(n.pitch):<4} {seconds(n.length, score.tempo_bpm):.2f}s"
            for n in part.sorted_notes()]


def bar_and_beat(ticks, beats_per_bar=3):
    """1-based (bar, beat) of a tick position, as players count it."""
    beat_index = ticks // TICKS_PER_QUARTER
    return beat_index // beats_per_bar + 1, beat_index % beats_per_bar + 1


def rehearsal_marks(score, every_bars=4, beats_per_bar=3):
    """Letters A, B, C... every few bars, with their start in seconds."""
    bar_ticks = beats_per_bar * TICKS_PER_QUARTER
    marks, tick, letter = [], 0, 0
    while tick < score.length_ticks():
        marks.append((chr(65 + letter), seconds(tick, score.tempo_bpm)))
        tick += every_bars * bar_ticks
        letter += 1
    return marks
