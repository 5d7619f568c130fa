"""Undo and redo for a Document, by whole-document snapshots.

Documents in this editor are short (release notes, emails), so a snapshot per
command is cheaper to get right than inverse operations per command.
"""
from document import Document, Paragraph


class NothingToUndo(Exception):
    pass


class History:
    def __init__(self, limit: int = 100):
        self.limit = limit
        self._undo: list[list[Paragraph]] = []
        self._redo: list[list[Paragraph]] = []

    def record(self, doc: Document) -> None:
        """Remember the document as it is now, before a command changes it."""
        self._undo.append(list(doc.paragraphs))
        del self._undo[: -self.limit]
        self._redo.clear()

    def undo(self, doc: Document) -> None:
        if not self._undo:
            raise NothingToUndo("undo")
        self._redo.append(doc.paragraphs)
        doc.paragraphs = self._undo.pop()

    def redo(self, doc: Document) -> None:
        if not self._redo:
            raise NothingToUndo("redo")
        self._undo.append(doc.paragraphs)
        doc.paragraphs = self._redo.pop()

    def depth(self) -> tuple[int, int]:
        return len(self._undo), len(self._redo)
