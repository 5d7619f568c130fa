from board import Board
from notation import move_name, parse_move
from rules import IllegalMove, apply, legal_moves


class Game:
    def __init__(self, board=None, to_move="b"):
        self.board = board or Board.standard()
        self.to_move = to_move
        self.history = []  # (board before, move)

    def play(self, text):
        move = parse_move(text)
        before = self.board
        self.board = apply(self.board, move, self.to_move)
        self.history.append((before, move))
        self.to_move = "w" if self.to_move == "b" else "b"
        return move_name(move)

    def takeback(self):
        if not self.history:
            raise IllegalMove("nothing to take back")
        self.board, _ = self.history.pop()
        self.to_move = "w" if self.to_move == "b" else "b"

    def options(self):
        return sorted(move_name(m) for m in legal_moves(self.board, self.to_move))

    def score(self):
        return {"b": self.board.count("b"), "w": self.board.count("w")}

    def winner(self):
        if not legal_moves(self.board, self.to_move):
            return "w" if self.to_move == "b" else "b"
        return None

    def transcript(self):
        return [move_name(m) for _, m in self.history]
