"""A small dense matrix of floats, enough for circuits of a few dozen nodes."""


class Matrix:
    def __init__(self, rows: list[list[float]]):
        if not rows or any(len(r) != len(rows[0]) for r in rows):
            raise ValueError("matrix rows must be non-empty and of equal length")
        self.rows = rows

    @classmethod
    def zeros(cls, n: int) -> "Matrix":
        return cls([[0.0] * n for _ in range(n)])

    @property
    def size(self) -> int:
        return len(self.rows)

    def copy(self) -> "Matrix":
        return Matrix([list(r) for r in self.rows])

    def __getitem__(self, rc: tuple[int, int]) -> float:
        r, c = rc
        return self.rows[r][c]

    def __setitem__(self, rc: tuple[int, int], value: float) -> None:
        r, c = rc
        self.rows[r][c] = value

    def times(self, vector: list[float]) -> list[float]:
        return [sum(a * x for a, x in zip(row, vector)) for row in self.rows]

    def swap_rows(self, i: int, j: int) -> None:
        self.rows[i], self.rows[j] = self.rows[j], self.rows[i]

    def add_scaled_row(self, target: int, source: int, factor: float) -> None:
        """row[target] += factor * row[source], in place."""
        src = self.rows[source]
        row = self.rows[target]
        for c in range(len(row)):
            row[c] += factor * src[c]
