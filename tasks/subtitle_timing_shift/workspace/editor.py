from srt import dumps, loads
import vtt


class SubtitleEditor:
    """Keeps the working track and an undo stack of earlier tracks."""

    def __init__(self, text, language="und"):
        self.track = loads(text, language)
        self._undo = []

    def _apply(self, new_track):
        self._undo.append(self.track)
        self.track = new_track
        return self.track

    def shift(self, offset_ms):
        return self._apply(self.track.shifted(offset_ms))

    def resync(self, factor, anchor_ms=0):
        return self._apply(self.track.stretched(factor, anchor_ms))

    def trim(self, start_ms, end_ms):
        return self._apply(self.track.window(start_ms, end_ms))

    def append(self, text, gap_ms=0):
        return self._apply(self.track.merged_with(loads(text, self.track.language), gap_ms))

    def undo(self):
        if not self._undo:
            return False
        self.track = self._undo.pop()
        return True

    def export(self):
        return dumps(self.track)

    def export_vtt(self, align=None, note=None):
        return vtt.dumps(self.track, align=align, note=note)

    def history_depth(self):
        return len(self._undo)

    def reading_speed(self, max_cps=17.0):
        return vtt.reading_report(self.track, max_cps)

    def problems(self):
        return {"overlaps": self.track.overlaps(), "too_fast": self.track.too_fast()}
