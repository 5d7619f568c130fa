"""A student's term: one line per course, the term GPA and the dean's list."""
from dataclasses import dataclass

from letters import display_percent, grade_points, letter_for
from scoring import course_percent

DEANS_LIST_GPA = 3.5
DEANS_LIST_MIN_CREDITS = 12


@dataclass(frozen=True)
class CourseResult:
    course: str
    credits: int
    percent: object
    letter: str


def course_result(course, credits, submissions, policy):
    pct = course_percent(submissions, policy)
    return CourseResult(course, credits, pct, letter_for(pct, policy))


def term_gpa(results):
    graded = [r for r in results if r.letter != "I"]
    credits = sum(r.credits for r in graded)
    if credits == 0:
        return None
    return round(sum(grade_points(r.letter) * r.credits for r in graded) / credits, 2)


def deans_list(results):
    gpa = term_gpa(results)
    credits = sum(r.credits for r in results if r.letter != "I")
    return gpa is not None and gpa >= DEANS_LIST_GPA and credits >= DEANS_LIST_MIN_CREDITS


def transcript_lines(student, results):
    lines = [f"Transcript: {student}"]
    for r in sorted(results, key=lambda r: r.course):
        lines.append(f"  {r.course:<8} {r.credits} cr  {display_percent(r.percent):>6}  {r.letter}")
    gpa = term_gpa(results)
    lines.append(f"  GPA {gpa:.2f}" if gpa is not None else "  GPA --")
    if deans_list(results):
        lines.append("  Dean's list")
    return lines


def academic_standing(results, probation_below=2.0):
    gpa = term_gpa(results)
    if gpa is None:
        return "no graded work"
    failed = [r.course for r in results if r.letter == "F"]
    if gpa < probation_below:
        return "probation"
    if failed:
        return f"good standing; repeat {', '.join(sorted(failed))}"
    return "dean's list" if deans_list(results) else "good standing"
