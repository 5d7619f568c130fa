from board import EMPTY, SIZE, BoardError

DIRECTIONS = {"b": ((1, -1), (1, 1)), "w": ((-1, -1), (-1, 1))}
KING_DIRECTIONS = ((1, -1), (1, 1), (-1, -1), (-1, 1))


class IllegalMove(Exception):
    pass


def owner(piece):
    return piece.lower() if piece != EMPTY else None


def directions(piece):
    if piece.isupper():
        return KING_DIRECTIONS
    return DIRECTIONS[piece]


def on_board(r, c):
    return 0 <= r < SIZE and 0 <= c < SIZE


def captures_from(board, r, c):
    piece = board.get(r, c)
    out = []
    for dr, dc in directions(piece):
        mr, mc, tr, tc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
        if not on_board(tr, tc):
            continue
        mid = board.get(mr, mc)
        if mid != EMPTY and owner(mid) != owner(piece) and board.get(tr, tc) == EMPTY:
            out.append(((r, c), (tr, tc)))
    return out


def steps_from(board, r, c):
    piece = board.get(r, c)
    out = []
    for dr, dc in directions(piece):
        tr, tc = r + dr, c + dc
        if on_board(tr, tc) and board.get(tr, tc) == EMPTY:
            out.append(((r, c), (tr, tc)))
    return out


def legal_moves(board, colour):
    captures = []
    steps = []
    for r, c in board.squares_of(colour):
        captures.extend(captures_from(board, r, c))
        steps.extend(steps_from(board, r, c))
    return captures if captures else steps


def apply(board, move, colour):
    (r, c), (tr, tc) = move
    if move not in legal_moves(board, colour):
        raise IllegalMove(f"{colour} cannot play {move}")
    nxt = board.copy()
    piece = nxt.get(r, c)
    nxt.put(r, c, EMPTY)
    if abs(tr - r) == 2:
        nxt.put((r + tr) // 2, (c + tc) // 2, EMPTY)
    if (colour == "b" and tr == SIZE - 1) or (colour == "w" and tr == 0):
        piece = piece.upper()
    nxt.put(tr, tc, piece)
    return nxt
