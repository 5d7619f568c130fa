"""Score-sheet notation: X strike, / spare, - miss, digits for pins. Frames separated by spaces."""


class NotationError(ValueError):
    pass


def parse_game(sheet):
    """'X 7/ 9- X X 81 X 9/ X XX8' -> list of pin counts per roll."""
    frames = sheet.split()
    if len(frames) != 10:
        raise NotationError(f"expected 10 frames, got {len(frames)}")
    rolls = []
    for number, frame in enumerate(frames, 1):
        rolls.extend(_frame_rolls(frame, number))
    return rolls


def _frame_rolls(frame, number):
    out = []
    for ch in frame:
        if ch == "X":
            out.append(10)
        elif ch == "/":
            if not out or out[-1] == 10:
                raise NotationError(f"frame {number}: spare without a first ball")
            out.append(10 - out[-1])
        elif ch == "-":
            out.append(0)
        elif ch.isdigit():
            out.append(int(ch))
        else:
            raise NotationError(f"frame {number}: unknown mark {ch!r}")
    limit = 3 if number == 10 else 2
    if len(out) > limit or (number < 10 and out[0] == 10 and len(out) > 1):
        raise NotationError(f"frame {number}: too many balls in {frame!r}")
    if len(out) >= 2 and out[0] != 10 and out[0] + out[1] > 10:
        raise NotationError(f"frame {number}: more than ten pins in {frame!r}")
    if number == 10 and len(out) == 3 and out[0] != 10 and out[0] + out[1] != 10:
        raise NotationError(f"frame 10: a bonus ball needs a strike or a spare in {frame!r}")
    return out


def format_frames(scores):
    return " ".join(f"{s:>3}" for s in scores)
