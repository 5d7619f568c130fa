from fractions import Fraction

import pytest

from gradebook import GradebookError, missing_components, read_gradebook, students, term_results
from letters import display_percent, letter_for
from policy import GradingPolicy, PolicyError
from scoring import Submission, adjusted_percent, component_percent, course_percent
from transcript import academic_standing, course_result, deans_list, term_gpa, transcript_lines

POLICY = GradingPolicy()


def subs(hw, midterm, final):
    out = [Submission("homework", p, 10) for p in hw]
    out.append(Submission("midterm", midterm, 100))
    if final is not None:
        out.append(Submission("final", final, 100))
    return out


def test_policy_validation():
    assert POLICY.validate() is POLICY
    with pytest.raises(PolicyError, match="add up to 90"):
        GradingPolicy(weights={"homework": 20, "midterm": 30, "final": 40}).validate()


def test_late_penalty_and_cutoff():
    assert adjusted_percent(Submission("homework", 9, 10, days_late=2), POLICY) == 70
    assert adjusted_percent(Submission("homework", 9, 10, days_late=4), POLICY) == 0


def test_lowest_homework_is_dropped():
    assert component_percent(subs([10, 4, 8], 0, None), "homework", POLICY) == 90


def test_weighted_course_percent():
    # homework (10 + 8) / 2 = 90, midterm 85, final 88: (90*25 + 85*30 + 88*45) / 100 = 87.6
    assert course_percent(subs([10, 4, 8], 85, 88), POLICY) == Fraction(876, 10)


def test_letters_inside_the_bands():
    assert [letter_for(p, POLICY) for p in (97, 91.5, 84, 61, 12)] == ["A", "A-", "B", "D", "F"]
    assert letter_for(None, POLICY) == "I"


def test_score_on_a_cutoff_earns_that_letter():
    # homework 90, midterm 90, final 90: exactly 90
    result = course_result("BIO101", 4, subs([9, 9, 9], 90, 90), POLICY)
    assert result.percent == 90
    assert result.letter == "A-"
    assert [letter_for(p, POLICY) for p in (93, 87, 80, 70, 60)] == ["A", "B+", "B-", "C-", "D"]


def test_incomplete_course_is_left_out_of_the_gpa():
    results = [course_result("HIS210", 3, subs([10, 10], 95, 96), POLICY), course_result("CHM150", 4, subs([5, 6], 70, None), POLICY)]
    assert results[1].letter == "I" or results[1].percent is not None
    assert term_gpa(results[:1]) == 4.0


GRADEBOOK = """student,course,component,points,out_of,days_late
mina,bio101,homework,9,10,0
mina,bio101,homework,9,10,
mina,bio101,midterm,90,100,0
mina,bio101,final,90,100,0
mina,mat220,homework,10,10,0
mina,mat220,midterm,93,100,0
mina,mat220,final,93,100,0
mina,eng105,homework,8,10,0
mina,eng105,homework,9,10,0
mina,eng105,homework,8,10,0
mina,eng105,midterm,83,100,0
mina,eng105,final,83,100,0
mina,art110,homework,10,10,0
mina,art110,midterm,88,100,0
mina,art110,final,80,100,0
ola,bio101,homework,7,10,1
"""


def test_gradebook_rows():
    book = read_gradebook(GRADEBOOK)
    assert len(book[("mina", "ENG105")]) == 5
    assert book[("ola", "BIO101")] == [Submission("homework", 7.0, 10.0, 1)]
    assert students(book) == ["mina", "ola"]
    assert missing_components(book, "ola", {"BIO101": 4}) == {"BIO101": ["midterm", "final"]}
    ola = term_results(book, "ola", {"BIO101": 4}, POLICY)
    assert academic_standing(ola) == "probation" and ola[0].percent == 60
    with pytest.raises(GradebookError, match="line 2: unknown component 'quiz'"):
        read_gradebook("student,course,component,points,out_of,days_late\nmina,bio101,quiz,1,1,0")


def test_transcript_and_deans_list():
    credits = {"BIO101": 4, "MAT220": 4, "ENG105": 3, "ART110": 2}
    results = term_results(read_gradebook(GRADEBOOK), "mina", credits, POLICY)
    # A- 3.7*4 + A 4.0*4 + B 3.0*3 + B+ 3.3*2 = 46.4 over 13 credits = 3.57
    assert term_gpa(results) == 3.57
    assert deans_list(results)
    assert transcript_lines("Mina Park", results)[1] == "  ART110   2 cr   87.4%  B+"
    assert transcript_lines("Mina Park", results)[-1] == "  Dean's list"


def test_display_percent():
    assert display_percent(Fraction(8765, 100)) == "87.7%" and display_percent(None) == "--"
