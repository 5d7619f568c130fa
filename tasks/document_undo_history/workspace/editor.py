"""Editing commands; every command is undoable."""
from document import Document, Mark
from history import History


class Editor:
    def __init__(self, doc: Document):
        self.doc = doc
        self.history = History()

    def type(self, index: int, pos: int, text: str) -> None:
        self.history.record(self.doc)
        self.doc.paragraphs[index].insert(pos, text)

    def bold(self, index: int, start: int, end: int) -> None:
        if start >= end:
            raise ValueError("empty selection")
        self.history.record(self.doc)
        self.doc.paragraphs[index].marks.append(Mark(start, end, "bold"))

    def split(self, index: int, pos: int) -> None:
        self.history.record(self.doc)
        self.doc.split(index, pos)

    def duplicate(self, index: int) -> None:
        self.history.record(self.doc)
        self.doc.duplicate(index)

    def delete(self, index: int) -> None:
        self.history.record(self.doc)
        self.doc.delete(index)

    def undo(self) -> None:
        self.history.undo(self.doc)

    def redo(self) -> None:
        self.history.redo(self.doc)
