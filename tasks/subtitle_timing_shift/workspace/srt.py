from cues import Cue, CueError, format_timestamp, parse_timestamp
from track import Track


def dumps(track):
    blocks = []
    for i, cue in enumerate(track.cues, start=1):
        blocks.append(f"{i}\n{format_timestamp(cue.start)} --> {format_timestamp(cue.end)}\n{cue.text}\n")
    return "\n".join(blocks)


def loads(text, language="und"):
    cues = []
    for block in [b for b in text.strip().split("\n\n") if b.strip()]:
        lines = block.strip().split("\n")
        if len(lines) < 3:
            raise CueError(f"incomplete block: {block!r}")
        if not lines[0].strip().isdigit():
            raise CueError(f"bad index line {lines[0]!r}")
        try:
            left, right = lines[1].split(" --> ")
        except ValueError:
            raise CueError(f"bad timing line {lines[1]!r}") from None
        cues.append(Cue(parse_timestamp(left), parse_timestamp(right), "\n".join(lines[2:])))
    return Track(cues, language)
