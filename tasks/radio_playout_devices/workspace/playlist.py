from dataclasses import dataclass


class PlaylistError(ValueError):
    pass


@dataclass(frozen=True)
class Item:
    title: str
    seconds: int
    kind: str = "song"  # song | ad | jingle

    def __post_init__(self):
        if self.seconds <= 0:
            raise PlaylistError(f"{self.title}: non-positive length")
        if self.kind not in ("song", "ad", "jingle"):
            raise PlaylistError(f"{self.title}: unknown kind {self.kind}")


def parse(text):
    """'Title | 3:45 | song' per line"""
    items = []
    for n, raw in enumerate(text.strip().splitlines(), start=1):
        parts = [p.strip() for p in raw.split("|")]
        if len(parts) not in (2, 3):
            raise PlaylistError(f"line {n}: {raw!r}")
        minutes, _, seconds = parts[1].partition(":")
        try:
            length = int(minutes) * 60 + int(seconds or 0)
        except ValueError:
            raise PlaylistError(f"line {n}: bad length {parts[1]!r}") from None
        items.append(Item(parts[0], length, parts[2] if len(parts) == 3 else "song"))
    return items


def total_seconds(items):
    return sum(i.seconds for i in items)


def ad_share(items):
    total = total_seconds(items)
    return round(100 * sum(i.seconds for i in items if i.kind == "ad") / total, 1) if total else 0.0


def by_kind(items):
    out = {"song": [], "ad": [], "jingle": []}
    for item in items:
        out[item.kind].append(item.title)
    return out


def longest(items):
    return max(items, key=lambda i: (i.seconds, i.title)).title if items else None


def titles(items):
    return [i.title for i in items]
