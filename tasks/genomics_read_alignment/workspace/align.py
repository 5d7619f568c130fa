"""Pairwise alignment by dynamic programming: global (Needleman-Wunsch) and local (Smith-Waterman)."""
from dataclasses import dataclass

from scoring import DEFAULT

DIAG, UP, LEFT, STOP = "D", "U", "L", "S"


@dataclass(frozen=True)
class Alignment:
    top: str
    bottom: str
    score: int
    start: tuple = (0, 0)

    def columns(self):
        return list(zip(self.top, self.bottom))


def _matrix(rows, cols, fill=0):
    return [[fill] * cols] * rows


def global_align(a, b, scheme=DEFAULT):
    n, m = len(a), len(b)
    score = _matrix(n + 1, m + 1)
    move = _matrix(n + 1, m + 1, STOP)
    for i in range(1, n + 1):
        score[i][0], move[i][0] = i * scheme.gap, UP
    for j in range(1, m + 1):
        score[0][j], move[0][j] = j * scheme.gap, LEFT
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            options = [
                (score[i - 1][j - 1] + scheme.pair(a[i - 1], b[j - 1]), DIAG),
                (score[i - 1][j] + scheme.gap, UP),
                (score[i][j - 1] + scheme.gap, LEFT),
            ]
            score[i][j], move[i][j] = max(options, key=lambda o: (o[0], o[1] == DIAG))
    return _trace(a, b, score, move, n, m)


def local_align(a, b, scheme=DEFAULT):
    n, m = len(a), len(b)
    score = _matrix(n + 1, m + 1)
    move = _matrix(n + 1, m + 1, STOP)
    best = (0, 0, 0)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            options = [
                (0, STOP),
                (score[i - 1][j - 1] + scheme.pair(a[i - 1], b[j - 1]), DIAG),
                (score[i - 1][j] + scheme.gap, UP),
                (score[i][j - 1] + scheme.gap, LEFT),
            ]
            score[i][j], move[i][j] = max(options, key=lambda o: (o[0], o[1] == DIAG))
            if score[i][j] > best[0]:
                best = (score[i][j], i, j)
    return _trace(a, b, score, move, best[1], best[2])


def _trace(a, b, score, move, i, j):
    top, bottom, total = [], [], score[i][j]
    while move[i][j] != STOP:
        step = move[i][j]
        if step == DIAG:
            top.append(a[i - 1])
            bottom.append(b[j - 1])
            i, j = i - 1, j - 1
        elif step == UP:
            top.append(a[i - 1])
            bottom.append("-")
            i -= 1
        else:
            top.append("-")
            bottom.append(b[j - 1])
            j -= 1
    return Alignment("".join(reversed(top)), "".join(reversed(bottom)), total, (i, j))
