"""The weekly chart: tracks ranked by distinct listeners, then by total seconds heard."""
from collections import defaultdict


def weekly_chart(scrobbles, catalog, size=3):
    listeners = defaultdict(set)
    seconds = defaultdict(int)
    for user, track_id, heard in scrobbles:
        listeners[track_id].add(user)
        seconds[track_id] += heard
    ranked = sorted(listeners, key=lambda t: (-len(listeners[t]), -seconds[t], t))
    return [
        {"position": i + 1, "track": catalog.get(t).title, "artist": catalog.get(t).artist, "listeners": len(listeners[t])}
        for i, t in enumerate(ranked[:size])
    ]


def format_chart(rows):
    if not rows:
        return "no plays this week"
    return "\n".join(f"{r['position']:>2}. {r['track']} - {r['artist']} ({r['listeners']})" for r in rows)
