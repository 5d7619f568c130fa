import pytest

from grading import grade, teacher_report
from quiz import Attempt, AttemptClosed, Question, Quiz
from storage import AttemptStore, CorruptAttempt
from vendor.schemalite import Schema, ValidationError, fields


def make_quiz():
    return Quiz("bio-7", "Cells", [
        Question(1, "Powerhouse of the cell?", ("nucleus", "mitochondrion", "ribosome"), 1),
        Question(2, "Site of protein synthesis?", ("ribosome", "vacuole"), 0),
        Question(3, "Holds the DNA?", ("membrane", "nucleus", "wall"), 1, points=2),
        Question(4, "Plant cells only?", ("cell wall", "ribosome"), 0),
    ])


def make_attempt(quiz):
    attempt = Attempt("a-19", "bio-7", "noor")
    attempt.answer(quiz, 1, 1, seconds=20)
    attempt.answer(quiz, 2, 1, seconds=95)
    attempt.answer(quiz, 3, 1, seconds=40)
    attempt.progress.mark(2)
    return attempt


def test_library_dict_keys():
    class S(Schema):
        counts = fields.Dict(keys=fields.Int(), values=fields.Int())

    assert S().load(S().dump({"counts": {3: 4}})) == {"counts": {3: 4}}
    with pytest.raises(ValidationError, match="counts: not an integer"):
        S().load({"counts": {"x": 1}})


def test_grade_in_session():
    quiz = make_quiz()
    g = grade(quiz, make_attempt(quiz))
    assert (g.points, g.wrong, g.unanswered, g.percent) == (3, (2,), (4,), 60.0)


def test_resumed_attempt_grades_the_same(tmp_path):
    quiz = make_quiz()
    store = AttemptStore(tmp_path / "attempts")
    store.save(make_attempt(quiz))
    g = grade(quiz, store.resume("a-19"))
    assert (g.points, g.wrong, g.unanswered) == (3, (2,), (4,))


def test_resume_roundtrip(tmp_path):
    quiz = make_quiz()
    store = AttemptStore(tmp_path)
    original = make_attempt(quiz)
    store.save(original)
    assert store.resume("a-19") == original


def test_teacher_report_after_resume(tmp_path):
    quiz = make_quiz()
    store = AttemptStore(tmp_path)
    store.save(make_attempt(quiz))
    attempt = store.resume("a-19")
    attempt.answer(quiz, 4, 0, seconds=30)
    assert teacher_report(quiz, attempt).splitlines() == [
        "noor: 4/5 (80.0%)",
        "  slow: Q2 Site of protein synthesis? (95 s)",
        "  slow: Q3 Holds the DNA? (40 s)",
        "  marked: Q2",
    ]


def test_teacher_report_in_session():
    quiz = make_quiz()
    report = teacher_report(quiz, make_attempt(quiz))
    assert report.splitlines()[1] == "  slow: Q2 Site of protein synthesis? (95 s)"


def test_submitted_attempt_is_closed(tmp_path):
    quiz = make_quiz()
    store = AttemptStore(tmp_path)
    attempt = make_attempt(quiz)
    attempt.submit()
    store.save(attempt)
    with pytest.raises(AttemptClosed):
        store.resume("a-19").answer(quiz, 4, 0)
    assert store.list_ids() == ["a-19"]


def test_corrupt_attempt(tmp_path):
    (tmp_path / "a-2.json").write_text('{"id": "a-2", "quiz": "bio-7"}')
    with pytest.raises(CorruptAttempt, match="student: is required"):
        AttemptStore(tmp_path).resume("a-2")
