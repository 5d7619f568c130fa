"""Corrections and clarifications: every change to a published story is logged with its reason."""
from dataclasses import dataclass, field, replace
from datetime import date


@dataclass(frozen=True)
class Correction:
    slug: str
    day: date
    field: str
    before: str
    after: str
    reason: str


@dataclass
class CorrectionsLog:
    entries: list = field(default_factory=list)

    def correct(self, story, day, field_name, new_value, reason):
        """A corrected copy of the story; the original object is left as published."""
        if field_name not in ("headline", "body", "author", "city"):
            raise ValueError(f"{field_name} cannot be corrected")
        if not reason.strip():
            raise ValueError("a correction needs a reason")
        before = getattr(story, field_name)
        if before == new_value:
            raise ValueError("nothing to correct")
        self.entries.append(Correction(story.slug, day, field_name, before, new_value, reason))
        return replace(story, **{field_name: new_value})

    def for_story(self, slug):
        return [e for e in self.entries if e.slug == slug]

    def notice(self, slug):
        """The line printed under a corrected story."""
        items = self.for_story(slug)
        if not items:
            return None
        last = items[-1]
        return f"Corrected on {last.day.isoformat()}: {last.reason}"
