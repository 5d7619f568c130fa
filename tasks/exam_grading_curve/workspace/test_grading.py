import pytest

from curve import flat, target_mean, top_to_hundred
from grading import Submission, grade_all, letter, percentage
from reports import distribution, gradebook, item_analysis, summary
from rubric import Rubric, RubricError


def rubric():
    r = Rubric("Physics midterm")
    r.add("q1", 10, "choice", "B").add("q2", 10, "choice", "D").add("q3", 30).add("q4", 50)
    return r


def subs():
    return [
        Submission("ana", {"q1": "b", "q2": "D"}, {"q3": 25, "q4": 45}),
        Submission("ben", {"q1": "A", "q2": "D"}, {"q3": 30, "q4": 40}),
        Submission("cai", {"q1": "B", "q2": "C"}, {"q3": 20, "q4": 30}),
        Submission("dev", {"q1": "B", "q2": "D"}, {"q3": 30, "q4": 30}, late_days=2),
    ]


def test_rubric_validation():
    with pytest.raises(RubricError):
        Rubric("x").add("q1", 5, "choice")
    assert rubric().total == 100


def test_percentages_with_late_penalty():
    assert [percentage(rubric(), s) for s in subs()] == [90.0, 80.0, 60.0, 70.0]


def test_letters_in_the_middle_of_a_band():
    assert [letter(p) for p in (95.5, 85.0, 72.3, 61.0, 12.0)] == ["A", "B", "C", "D", "F"]


def test_cutoff_scores_earn_the_higher_grade():
    assert [letter(p) for p in (90.0, 80.0, 70.0, 60.0)] == ["A", "B", "C", "D"]


def test_grade_all():
    assert grade_all(rubric(), subs()) == {
        "ana": (90.0, "A"), "ben": (80.0, "B"), "cai": (60.0, "D"), "dev": (70.0, "C"),
    }


def test_flat_curve_caps_at_100():
    assert flat(15)({"a": 90.0, "b": 50.0}) == {"a": 100.0, "b": 65.0}


def test_curves():
    assert top_to_hundred({"a": 80.0, "b": 40.0}) == {"a": 100.0, "b": 50.0}
    assert target_mean(75)({"a": 80.0, "b": 60.0}) == {"a": 85.0, "b": 65.0}


def test_distribution_and_summary():
    results = grade_all(rubric(), subs())
    assert distribution(results) == {"A": 1, "B": 1, "C": 1, "D": 1, "F": 0}
    assert summary(results) == {"n": 4, "mean": 75.0, "median": 75.0, "passing": 4}


def test_gradebook_text():
    text = gradebook(rubric(), subs(), curve=flat(2))
    assert text.splitlines()[1] == "  ana         92.00  A"
    assert text.splitlines()[-1] == "  A:1 B:1 C:1 D:1 F:0"


def test_item_analysis():
    assert item_analysis(rubric(), subs()) == {"q1": 0.75, "q2": 0.75}


def test_mark_out_of_range():
    with pytest.raises(RubricError):
        percentage(rubric(), Submission("x", marks={"q3": 31}))


def test_regrade_moves_a_student_up_a_band():
    from regrade import RegradeDesk, RegradeError

    desk = RegradeDesk(rubric(), subs())
    req = desk.request("cai", "q4", "method marks missing")
    assert desk.resolve(req, 40.0) == (65.0, "D")
    req2 = desk.request("cai", "q3", "arithmetic slip")
    assert desk.resolve(req2, 25.0, threshold=5.0) == (70.0, "C")
    assert desk.open_requests() == []
    with pytest.raises(RegradeError):
        desk.request("cai", "q1", "I meant B")


def test_regrade_small_difference_takes_higher_mark():
    from regrade import RegradeDesk

    desk = RegradeDesk(rubric(), subs())
    req = desk.request("ben", "q4", "")
    assert desk.resolve(req, 42.0) == (82.0, "B")
    assert req.status == "changed"


def test_chained_curve_and_description():
    from curve import chain

    assert chain(flat(5), top_to_hundred)({"a": 75.0, "b": 45.0}) == {"a": 100.0, "b": 62.5}
    assert rubric().describe().splitlines()[:2] == ["Physics midterm (100 points)", "  q1   MC 10"]
