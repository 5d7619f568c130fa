"""Type registrations."""
from dataclasses import dataclass


class SnapshotError(ValueError):
    pass


@dataclass(frozen=True)
class Entry:
    cls: type
    tag: str
    dump: object
    load: object
    by_ref: bool


class Registry:
    def __init__(self):
        self._by_cls = {}
        self._by_tag = {}

    def register(self, cls, tag, dump, load, by_ref=False):
        if tag in self._by_tag:
            raise SnapshotError(f"tag {tag!r} already registered for {self._by_tag[tag].cls.__name__}")
        entry = Entry(cls, tag, dump, load, by_ref)
        self._by_cls[cls] = entry
        self._by_tag[tag] = entry
        return entry

    def for_object(self, obj):
        return self._by_cls.get(type(obj))

    def for_tag(self, tag):
        try:
            return self._by_tag[tag]
        except KeyError:
            raise SnapshotError(f"no class registered for tag {tag!r}") from None

    def tags(self):
        return sorted(self._by_tag)
