"""End-of-night awards and the printed recap."""
from notation import format_frames, parse_game
from scoring import frame_scores, game_score, strikes


def high_game(sheets):
    best = None
    for name, games in sorted(sheets.items()):
        for sheet in games:
            score = game_score(parse_game(sheet))
            if best is None or score > best[1]:
                best = (name, score)
    return best


def most_strikes(sheets):
    counts = {name: sum(strikes(parse_game(s)) for s in games) for name, games in sheets.items()}
    top = max(counts.values())
    return sorted(name for name, c in counts.items() if c == top), top


def recap_line(name, sheet):
    return f"{name:<8}{format_frames(frame_scores(parse_game(sheet)))}"


def most_improved(league):
    """The bowler whose average has risen most over their established average (None if nobody improved)."""
    best, gain = None, 0
    for bowler in sorted(league.bowlers.values(), key=lambda b: b.name):
        if bowler.established_average is None or not bowler.games:
            continue
        delta = bowler.average() - bowler.established_average
        if delta > gain:
            best, gain = bowler.name, delta
    return None if best is None else (best, gain)
