"""A score: named parts, each a list of notes placed in ticks (480 per quarter note)."""
from dataclasses import dataclass, field

from notes import number

TICKS_PER_QUARTER = 480


@dataclass(frozen=True)
class Note:
    start: int
    length: int
    pitch: int
    velocity: int = 80

    def end(self):
        return self.start + self.length


@dataclass
class Part:
    name: str
    channel: int
    notes: list = field(default_factory=list)

    def add(self, beat, beats, note_name, velocity=80):
        start = round(beat * TICKS_PER_QUARTER)
        length = round(beats * TICKS_PER_QUARTER)
        if length <= 0:
            raise ValueError("notes need a positive length")
        self.notes.append(Note(start, length, number(note_name), velocity))
        return self

    def sorted_notes(self):
        """Notes in playing order; chords low to high."""
        return sorted(self.notes, key=lambda n: (n.start, n.pitch))


@dataclass
class Score:
    title: str
    parts: list = field(default_factory=list)
    tempo_bpm: int = 120

    def part(self, name, channel):
        p = Part(name, channel)
        self.parts.append(p)
        return p

    def length_ticks(self):
        """Where the last note of any part ends."""
        return max((n.end() for p in self.parts for n in p.notes), default=0)
