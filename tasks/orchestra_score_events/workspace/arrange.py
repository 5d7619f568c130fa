"""Arranging helpers: transpose a part, double it at the octave, and check instrument ranges."""
from dataclasses import replace

from notes import name, number, transpose
from score import Part

RANGES = {
    "violin": ("G3", "A7"),
    "viola": ("C3", "E6"),
    "cello": ("C2", "A5"),
    "flute": ("C4", "C7"),
    "piano": ("A0", "C8"),
}


def transposed(part, semitones, new_name=None):
    notes = [replace(n, pitch=transpose(n.pitch, semitones)) for n in part.notes]
    return Part(new_name or part.name, part.channel, notes)


def doubled(part, octaves=1):
    """The part with every note also played `octaves` higher (softer, so the melody stays on top)."""
    extra = [replace(n, pitch=transpose(n.pitch, 12 * octaves), velocity=max(1, n.velocity - 15)) for n in part.notes]
    return Part(part.name, part.channel, list(part.notes) + extra)


def out_of_range(part, instrument=None):
    """Notes the instrument cannot play, as names, in time order."""
    low, high = RANGES[instrument or part.name]
    lo, hi = number(low), number(high)
    return [name(n.pitch) for n in part.sorted_notes() if not lo <= n.pitch <= hi]


def merge(parts, name_, channel):
    """One part holding every note of `parts` (for a piano reduction)."""
    notes = [n for p in parts for n in p.notes]
    return Part(name_, channel, notes)
