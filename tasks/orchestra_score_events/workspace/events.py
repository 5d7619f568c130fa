"""The event stream the sequencer files use: per part, note-on and note-off events with delta times.

Each event is written as: varint delta ticks since the previous event of the part, one status byte
(0x90 note on / 0x80 note off, with the channel in the low nibble), pitch and velocity."""
from score import Note, Part, Score


def _varint(n, out):
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _read_varint(data, pos):
    shift = value = 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7


def part_events(part):
    """(tick, order, status, pitch, velocity); note-offs sort before note-ons at the same tick."""
    events = []
    for n in part.notes:
        events.append((n.start, 1, 0x90 | part.channel, n.pitch, n.velocity))
        events.append((n.end(), 0, 0x80 | part.channel, n.pitch, 0))
    return events


def encode_part(part):
    out = bytearray()
    last = 0
    events = part_events(part)
    for i, (tick, _, status, pitch, velocity) in enumerate(sorted(events)):
        _varint(tick - last, out)
        out += bytes([status, pitch, velocity])
        last = events[i][0]
    return bytes(out)


def decode_part(name, data):
    pos, tick, open_notes, notes, channel = 0, 0, {}, [], 0
    while pos < len(data):
        delta, pos = _read_varint(data, pos)
        tick += delta
        status, pitch, velocity = data[pos], data[pos + 1], data[pos + 2]
        pos += 3
        channel = status & 0x0F
        if status & 0xF0 == 0x90:
            open_notes[pitch] = (tick, velocity)
        else:
            start, vel = open_notes.pop(pitch)
            notes.append(Note(start, tick - start, pitch, vel))
    if open_notes:
        raise ValueError(f"{name}: notes never released: {sorted(open_notes)}")
    return Part(name, channel, sorted(notes, key=lambda n: (n.start, n.pitch)))


def encode_score(score):
    chunks = [f"{score.title}|{score.tempo_bpm}".encode()]
    for part in score.parts:
        chunks.append(part.name.encode() + b"\x00" + encode_part(part).hex().encode())
    return b"\n".join(chunks)


def decode_score(blob):
    head, *parts = blob.split(b"\n")
    title, tempo = head.decode().split("|")
    score = Score(title, tempo_bpm=int(tempo))
    for chunk in parts:
        name, hexdata = chunk.split(b"\x00")
        score.parts.append(decode_part(name.decode(), bytes.fromhex(hexdata.decode())))
    return score
