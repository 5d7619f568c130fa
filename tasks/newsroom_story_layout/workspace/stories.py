"""Stories as filed by reporters."""
from dataclasses import dataclass, field
from datetime import date


@dataclass
class Story:
    slug: str
    desk: str
    headline: str
    author: str
    city: str
    filed: date
    body: str
    tags: list = field(default_factory=list)

    def __post_init__(self):
        if not self.headline.strip():
            raise ValueError(f"{self.slug}: no headline")
        if self.desk not in ("news", "sport", "business", "features"):
            raise ValueError(f"{self.slug}: unknown desk {self.desk}")

    def words(self):
        return len(self.body.split())


def by_desk(stories):
    """{desk: [slugs]} in slug order, for the editors' morning list."""
    out = {}
    for s in sorted(stories, key=lambda s: s.slug):
        out.setdefault(s.desk, []).append(s.slug)
    return dict(sorted(out.items()))


def tagged(stories, tag):
    return sorted(s.slug for s in stories if tag in s.tags)
