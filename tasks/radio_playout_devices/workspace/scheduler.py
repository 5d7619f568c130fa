from playlist import ad_share, total_seconds
from playout import Playout


class Station:
    def __init__(self, name, playout: Playout, max_ad_share=25.0):
        self.name = name
        self.playout = playout
        self.max_ad_share = max_ad_share
        self.hours = {}

    def schedule(self, hour, items):
        if not 0 <= hour < 24:
            raise ValueError("hour must be 0-23")
        if total_seconds(items) > 3600:
            raise ValueError(f"hour {hour} is overfull")
        if ad_share(items) > self.max_ad_share:
            raise ValueError(f"hour {hour} has too many ads")
        self.hours[hour] = list(items)

    def run_hour(self, hour):
        return self.playout.play(f"{self.name}:{hour:02d}", self.hours.get(hour, []))

    def run_day(self, hours):
        return {h: self.run_hour(h) for h in hours}

    def report(self):
        played = [title for stream, _, title in self.playout.log if stream.startswith(self.name + ":")]
        return {"played": len(played), "failed": len(self.playout.failed)}


def clock(items, start_hour):
    """Start time of each item within its hour, as HH:MM:SS."""
    out = []
    offset = 0
    for item in items:
        minutes, seconds = divmod(offset, 60)
        out.append((f"{start_hour:02d}:{minutes:02d}:{seconds:02d}", item.title))
        offset += item.seconds
    return out


def fill_report(station):
    rows = []
    for hour in sorted(station.hours):
        items = station.hours[hour]
        used = sum(i.seconds for i in items)
        rows.append((hour, used, 3600 - used))
    return rows
