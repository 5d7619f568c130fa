SIZE = 8
EMPTY = "."


class BoardError(ValueError):
    pass


class Board:
    def __init__(self, grid):
        if len(grid) != SIZE or any(len(row) != SIZE for row in grid):
            raise BoardError("board must be 8x8")
        self.grid = grid

    @classmethod
    def empty(cls):
        return cls([[EMPTY] * SIZE] * SIZE)

    @classmethod
    def standard(cls):
        board = cls.empty()
        for r in range(SIZE):
            for c in range(SIZE):
                if (r + c) % 2 == 1:
                    if r < 3:
                        board.put(r, c, "b")
                    elif r > 4:
                        board.put(r, c, "w")
        return board

    def copy(self):
        return Board(list(self.grid))

    def get(self, r, c):
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise BoardError(f"off board: {r},{c}")
        return self.grid[r][c]

    def put(self, r, c, piece):
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise BoardError(f"off board: {r},{c}")
        self.grid[r][c] = piece

    def count(self, colour):
        return sum(1 for row in self.grid for p in row if p.lower() == colour)

    def squares_of(self, colour):
        return [(r, c) for r in range(SIZE) for c in range(SIZE) if self.grid[r][c].lower() == colour]

    def render(self):
        return "\n".join("".join(row) for row in self.grid)

    @classmethod
    def parse(cls, text):
        rows = [list(line.strip()) for line in text.strip().splitlines()]
        return cls(rows)
