"""Note names and numbers: C4 is 60, sharps only."""
import re

NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
_NOTE = re.compile(r"^([A-G]#?)(-?\d)$")


def number(name):
    m = _NOTE.match(name)
    if not m:
        raise ValueError(f"not a note name: {name!r}")
    value = NAMES.index(m.group(1)) + 12 * (int(m.group(2)) + 1)
    if not 0 <= value <= 127:
        raise ValueError(f"{name} is outside the MIDI range")
    return value


def name(value):
    if not 0 <= value <= 127:
        raise ValueError(f"note {value} outside 0-127")
    return f"{NAMES[value % 12]}{value // 12 - 1}"


def transpose(value, semitones):
    out = value + semitones
    if not 0 <= out <= 127:
        raise ValueError(f"transposing {name(value)} by {semitones} leaves the MIDI range")
    return out
