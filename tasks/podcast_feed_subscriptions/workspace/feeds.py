from dataclasses import dataclass
from datetime import date


class FeedError(ValueError):
    pass


@dataclass(frozen=True)
class Episode:
    show: str
    guid: str
    title: str
    published: date
    duration_s: int

    @property
    def topic(self):
        return f"shows.{self.show}.episodes"


def parse_duration(text):
    parts = [int(p) for p in text.split(":")]
    if not 1 <= len(parts) <= 3 or any(p < 0 for p in parts):
        raise FeedError(f"bad duration {text!r}")
    seconds = 0
    for p in parts:
        seconds = seconds * 60 + p
    return seconds


def parse_item(show, item):
    try:
        guid = item["guid"].strip()
        title = item["title"].strip()
        published = date.fromisoformat(item["pubDate"])
    except KeyError as missing:
        raise FeedError(f"{show}: item without {missing}") from None
    if not guid:
        raise FeedError(f"{show}: empty guid")
    return Episode(show, guid, title, published, parse_duration(item.get("duration", "0")))


def parse_feed(show, items):
    episodes = [parse_item(show, item) for item in items]
    seen = set()
    unique = []
    for ep in sorted(episodes, key=lambda e: (e.published, e.guid)):
        if ep.guid in seen:
            continue
        seen.add(ep.guid)
        unique.append(ep)
    return unique
