"""Gaussian elimination with partial pivoting."""
from matrix import Matrix


class SingularMatrix(ValueError):
    pass


def solve(a: Matrix, b: list[float], eps: float = 1e-12) -> list[float]:
    """Solve a x = b; `a` and `b` are left as they were."""
    n = a.size
    if len(b) != n:
        raise ValueError(f"right-hand side has {len(b)} entries, matrix has {n} rows")
    m = a.copy()
    rhs = list(b)
    for k in range(n):
        pivot = max(range(k, n), key=lambda r: abs(m[r, k]))
        if abs(m[pivot, k]) < eps:
            raise SingularMatrix(f"no usable pivot in column {k}")
        if pivot != k:
            m.swap_rows(k, pivot)
            rhs[k], rhs[pivot] = rhs[pivot], rhs[k]
        for r in range(k + 1, n):
            factor = -m[r, k] / m[k, k]
            if factor:
                m.add_scaled_row(r, k, factor)
                rhs[r] += factor * rhs[k]
    x = [0.0] * n
    for r in reversed(range(n)):
        tail = sum(m[r, c] * x[c] for c in range(r + 1, n))
        x[r] = (rhs[r] - tail) / m[r, r]
    return x
