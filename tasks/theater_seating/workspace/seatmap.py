"""Seat map of one performance: row letters by seat numbers."""
AVAILABLE = "."
HELD = "h"
SOLD = "x"


class SeatTaken(Exception):
    pass


class SeatMap:
    def __init__(self, row_labels: str, seats_per_row: int):
        if seats_per_row < 1 or not row_labels:
            raise ValueError("a hall needs at least one row and one seat per row")
        self.row_labels = row_labels
        self.seats_per_row = seats_per_row
        self._grid = [[AVAILABLE] * seats_per_row] * len(row_labels)

    def _locate(self, seat: str) -> tuple[int, int]:
        """'C12' -> (2, 11)."""
        row, number = seat[0].upper(), int(seat[1:])
        if row not in self.row_labels or not 1 <= number <= self.seats_per_row:
            raise ValueError(f"no seat {seat} in this hall")
        return self.row_labels.index(row), number - 1

    def state(self, seat: str) -> str:
        r, c = self._locate(seat)
        return self._grid[r][c]

    def mark(self, seat: str, state: str) -> None:
        r, c = self._locate(seat)
        self._grid[r][c] = state

    def best_block(self, size: int, row_order: str | None = None) -> list[str] | None:
        """The first `size` adjacent free seats, trying rows in `row_order` (default front to back),
        and within a row the block closest to the centre."""
        centre = (self.seats_per_row - 1) / 2
        for label in row_order or self.row_labels:
            row = self._grid[self.row_labels.index(label)]
            starts = [s for s in range(self.seats_per_row - size + 1) if all(c == AVAILABLE for c in row[s : s + size])]
            if starts:
                best = min(starts, key=lambda s: abs(s + (size - 1) / 2 - centre))
                return [f"{label}{n + 1}" for n in range(best, best + size)]
        return None

    def count(self, state: str) -> int:
        return sum(row.count(state) for row in self._grid)

    def render(self) -> str:
        return "\n".join(f"{label} {''.join(row)}" for label, row in zip(self.row_labels, self._grid))
