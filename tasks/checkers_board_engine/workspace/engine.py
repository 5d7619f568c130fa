from notation import move_name
from rules import apply, legal_moves

PIECE_VALUE = {"b": 1.0, "w": 1.0, "B": 1.6, "W": 1.6}


def evaluate(board, colour):
    score = 0.0
    for row in board.grid:
        for piece in row:
            if piece == ".":
                continue
            value = PIECE_VALUE[piece]
            score += value if piece.lower() == colour else -value
    return score


def other(colour):
    return "w" if colour == "b" else "b"


def negamax(board, colour, depth):
    moves = legal_moves(board, colour)
    if not moves:
        return -100.0
    if depth == 0:
        return evaluate(board, colour)
    best = float("-inf")
    for move in moves:
        best = max(best, -negamax(apply(board, move, colour), other(colour), depth - 1))
    return best


def best_move(board, colour, depth=2):
    moves = legal_moves(board, colour)
    if not moves:
        return None
    scored = []
    for move in moves:
        value = -negamax(apply(board, move, colour), other(colour), depth - 1)
        scored.append((-value, move_name(move)))
    scored.sort()
    return scored[0][1]
