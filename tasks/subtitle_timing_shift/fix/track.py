from cues import Cue, CueError


class Track:
    def __init__(self, cues=None, language="und"):
        self.cues = sorted(cues or [], key=lambda c: (c.start, c.end))
        self.language = language

    def __len__(self):
        return len(self.cues)

    def __iter__(self):
        return iter(self.cues)

    def texts(self):
        return [c.text for c in self.cues]

    def starts(self):
        return [c.start for c in self.cues]

    def shifted(self, offset_ms):
        cues = []
        for cue in self.cues:
            if cue.start + offset_ms < 0:
                raise CueError(f"shift of {offset_ms} ms moves {cue.text!r} before zero")
            cues.append(Cue(cue.start + offset_ms, cue.end + offset_ms, cue.text))
        return Track(cues, self.language)

    def stretched(self, factor, anchor_ms=0):
        if factor <= 0:
            raise CueError("factor must be positive")
        cues = []
        for cue in self.cues:
            start = anchor_ms + round((cue.start - anchor_ms) * factor)
            end = anchor_ms + round((cue.end - anchor_ms) * factor)
            cues.append(Cue(start, end, cue.text))
        return Track(cues, self.language)

    def window(self, start_ms, end_ms):
        picked = [Cue(c.start, c.end, c.text) for c in self.cues if c.start >= start_ms and c.end <= end_ms]
        return Track(picked, self.language)

    def merged_with(self, other, gap_ms=0):
        if not self.cues:
            return Track([Cue(c.start, c.end, c.text) for c in other.cues], self.language)
        base = self.cues[-1].end + gap_ms
        cues = [Cue(c.start, c.end, c.text) for c in self.cues]
        for c in other.cues:
            cues.append(Cue(c.start + base, c.end + base, c.text))
        return Track(cues, self.language)

    def total_duration(self):
        if not self.cues:
            return 0
        return self.cues[-1].end - self.cues[0].start

    def overlaps(self):
        found = []
        for a, b in zip(self.cues, self.cues[1:]):
            if a.overlaps(b):
                found.append((a.text, b.text))
        return found

    def too_fast(self, max_cps=17.0):
        return [c.text for c in self.cues if c.chars_per_second() > max_cps]
