"""Dispatcher desks: each works through its own list of arriving flights against the shared board."""
import threading

from board import NoGateAvailable


class Desk:
    def __init__(self, name, board, flights):
        self.name = name
        self.board = board
        self.flights = list(flights)
        self.placed = {}
        self.unplaced = []
        self.errors = []
        self.thread = threading.Thread(target=self._work, name=f"desk-{name}", daemon=True)

    def _work(self):
        for flight in self.flights:
            try:
                self.placed[flight.number] = self.board.assign(flight)
            except NoGateAvailable:
                self.unplaced.append(flight.number)
            except Exception as exc:
                self.errors.append(f"{flight.number}: {exc!r}")

    def start(self):
        self.thread.start()
        return self

    def summary(self):
        placed = ", ".join(f"{n}@{g}" for n, g in sorted(self.placed.items()))
        parts = [f"desk {self.name}: {placed or 'nothing placed'}"]
        if self.unplaced:
            parts.append(f"no gate for {', '.join(self.unplaced)}")
        if self.errors:
            parts.append(f"{len(self.errors)} errors")
        return "; ".join(parts)


def run_desks(board, lists, timeout=3.0):
    desks = [Desk(str(i), board, flights).start() for i, flights in enumerate(lists)]
    for d in desks:
        d.thread.join(timeout)
    stuck = [d.name for d in desks if d.thread.is_alive()]
    return desks, stuck


def double_booked(board):
    """Pairs of flights on the same gate at overlapping times."""
    pairs = []
    items = sorted(board.assignments.items(), key=lambda kv: kv[0].number)
    for i, (a, ga) in enumerate(items):
        for b, gb in items[i + 1:]:
            if ga == gb and a.overlaps(b):
                pairs.append((a.number, b.number, ga))
    return pairs
