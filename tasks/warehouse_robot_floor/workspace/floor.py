"""The warehouse floor as a grid: shelving is blocked, and robots reserve the cells of their route."""
import threading
from collections import deque


class CellTaken(Exception):
    pass


class FloorMap:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]
        self.height = len(self.rows)
        self.width = len(self.rows[0])
        self.reserved = {}
        self._lock = threading.Lock()

    def free(self, cell):
        """Inside the grid and not shelving."""
        r, c = cell
        return 0 <= r < self.height and 0 <= c < self.width and self.rows[r][c] != "#"

    def neighbours(self, cell):
        r, c = cell
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            n = (r + dr, c + dc)
            if self.free(n):
                yield n

    def route(self, start, goal):
        """Shortest 4-connected route avoiding shelving (reservations are not considered)."""
        prev, queue = {start: None}, deque([start])
        while queue:
            cur = queue.popleft()
            if cur == goal:
                path = []
                while cur is not None:
                    path.append(cur)
                    cur = prev[cur]
                return path[::-1]
            for n in self.neighbours(cur):
                if n not in prev:
                    prev[n] = cur
                    queue.append(n)
        return None

    def reserve(self, robot, cells):
        with self._lock:
            clash = [c for c in cells if self.reserved.get(c, robot) != robot]
            if clash:
                raise CellTaken(f"{robot}: {clash[0]} reserved by {self.reserved[clash[0]]}")
            for c in cells:
                self.reserved[c] = robot

    def release(self, robot):
        with self._lock:
            for c in [c for c, r in self.reserved.items() if r == robot]:
                del self.reserved[c]


def parse_floor(text):
    return FloorMap([line for line in text.strip().splitlines()])
