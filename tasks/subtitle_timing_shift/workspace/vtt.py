from cues import format_timestamp

HEADER = "WEBVTT"


def vtt_timestamp(ms):
    return format_timestamp(ms).replace(",", ".")


def cue_settings(cue, line_position=None, align=None):
    settings = []
    if line_position is not None:
        settings.append(f"line:{line_position}%")
    if align is not None:
        if align not in ("start", "center", "end"):
            raise ValueError(f"bad alignment {align!r}")
        settings.append(f"align:{align}")
    return " ".join(settings)


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def dumps(track, align=None, note=None):
    out = [HEADER]
    if track.language != "und":
        out[0] += f" - {track.language}"
    if note:
        out.append("")
        out.append("NOTE " + note.replace("\n", " "))
    for i, cue in enumerate(track.cues, start=1):
        timing = f"{vtt_timestamp(cue.start)} --> {vtt_timestamp(cue.end)}"
        settings = cue_settings(cue, align=align)
        if settings:
            timing += " " + settings
        out.append("")
        out.append(f"c{i}")
        out.append(timing)
        out.append(escape(cue.text))
    return "\n".join(out) + "\n"


def reading_report(track, max_cps=17.0):
    rows = []
    for cue in track.cues:
        cps = cue.chars_per_second()
        rows.append({"start": vtt_timestamp(cue.start), "cps": round(cps, 1), "ok": cps <= max_cps})
    return rows
