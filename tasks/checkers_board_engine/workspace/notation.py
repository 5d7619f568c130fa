from board import SIZE

FILES = "abcdefgh"


class NotationError(ValueError):
    pass


def square_name(r, c):
    return f"{FILES[c]}{SIZE - r}"


def parse_square(text):
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in FILES or not text[1].isdigit():
        raise NotationError(f"bad square {text!r}")
    c = FILES.index(text[0])
    r = SIZE - int(text[1])
    if not 0 <= r < SIZE:
        raise NotationError(f"bad square {text!r}")
    return r, c


def move_name(move):
    (r, c), (tr, tc) = move
    sep = "x" if abs(tr - r) == 2 else "-"
    return f"{square_name(r, c)}{sep}{square_name(tr, tc)}"


def parse_move(text):
    for sep in ("x", "-"):
        if sep in text:
            a, b = text.split(sep)
            return parse_square(a), parse_square(b)
    raise NotationError(f"bad move {text!r}")
