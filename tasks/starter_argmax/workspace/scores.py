"""Finding the best score."""


def index_of_max(values):
    """Index of the largest value (the first one on ties)."""
    best_index, best = 0, values[0]
    for i, v in enumerate(values):
        if v < best:
            best_index, best = i, v
    return best_index
