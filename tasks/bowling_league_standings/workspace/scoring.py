"""Ten-pin scoring from a list of rolls."""


def frame_scores(rolls):
    """Running total after each of the ten frames."""
    totals, running, i = [], 0, 0
    for frame in range(10):
        if i >= len(rolls):
            raise ValueError(f"game ends in frame {frame + 1}")
        if rolls[i] == 10:
            running += 10 + rolls[i + 1] + rolls[i + 1]
            i += 1
        elif rolls[i] + rolls[i + 1] == 10:
            running += 10 + rolls[i + 2]
            i += 2
        else:
            running += rolls[i] + rolls[i + 1]
            i += 2
        totals.append(running)
    return totals


def game_score(rolls):
    return frame_scores(rolls)[-1]


def strikes(rolls):
    """Strikes thrown, counting the bonus balls of the tenth frame."""
    count, i = 0, 0
    for frame in range(10):
        if rolls[i] == 10:
            count += 1
            i += 1
        else:
            i += 2
    count += sum(1 for r in rolls[i:] if r == 10)
    return count
