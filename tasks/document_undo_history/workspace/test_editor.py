import pytest

from document import Document
from editor import Editor
from history import NothingToUndo


def release_notes():
    return Editor(Document(["Fixed login timeout.", "Faster search."]))


def test_split_and_undo():
    ed = release_notes()
    ed.split(0, 6)
    assert ed.doc.texts() == ["Fixed ", "login timeout.", "Faster search."]
    ed.undo()
    assert ed.doc.texts() == ["Fixed login timeout.", "Faster search."]


def test_undo_restores_typed_text():
    ed = release_notes()
    ed.type(1, 0, "Much ")
    ed.type(1, 5, "much ")
    ed.undo()
    assert ed.doc.texts()[1] == "Much Faster search.", ed.doc.texts()


def test_undo_removes_bold():
    ed = release_notes()
    ed.bold(0, 0, 5)
    assert ed.doc.paragraphs[0].styled("bold") == ["Fixed"]
    ed.undo()
    assert ed.doc.paragraphs[0].styled("bold") == []


def test_redo_after_undo_of_delete():
    ed = release_notes()
    ed.delete(0)
    ed.undo()
    ed.redo()
    assert ed.doc.texts() == ["Faster search."]
    with pytest.raises(NothingToUndo):
        ed.redo()


def test_bolding_a_duplicate_leaves_the_original_plain():
    ed = release_notes()
    ed.duplicate(1)
    ed.bold(2, 0, 6)
    assert ed.doc.paragraphs[2].styled("bold") == ["Faster"]
    assert ed.doc.paragraphs[1].styled("bold") == [], "original paragraph got bold text"


def test_marks_shift_when_typing_before_them():
    ed = release_notes()
    ed.bold(1, 7, 13)
    ed.type(1, 0, "Much ")
    assert ed.doc.paragraphs[1].styled("bold") == ["search"]
