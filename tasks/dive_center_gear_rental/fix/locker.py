"""The gear locker: items are checked out to a diver for one dive and must come back afterwards."""
from contextlib import contextmanager


class NoGear(Exception):
    pass


class Locker:
    def __init__(self, items):
        self.items = {i.tag: i for i in items}
        self.out = {}
        self.history = []

    def available(self, kind, size=None, day=None):
        return sorted(
            tag for tag, i in self.items.items()
            if i.kind == kind and tag not in self.out and (size is None or i.size == size)
            and (day is None or i.serviceable(day))
        )

    def take(self, diver, kind, size, day):
        tags = self.available(kind, size, day)
        if not tags:
            raise NoGear(f"no {kind} in size {size} for {diver}")
        self.out[tags[0]] = diver
        return self.items[tags[0]]

    def give_back(self, item):
        self.out.pop(item.tag, None)

    @contextmanager
    def kit(self, diver, day, sizes):
        """A full kit for one dive; everything goes back in the locker when the dive is over."""
        taken = []
        try:
            for kind in ("regulator", "bcd", "computer", "tank"):
                taken.append(self.take(diver, kind, sizes.get(kind, "-"), day))
        except NoGear:
            for item in taken:
                self.give_back(item)
            raise
        completed = False
        try:
            yield {item.kind: item for item in taken}
            completed = True
        finally:
            for item in taken:
                if completed:
                    item.dives += 1
                self.give_back(item)
            if completed:
                self.history.append((day, diver, [i.tag for i in taken]))
