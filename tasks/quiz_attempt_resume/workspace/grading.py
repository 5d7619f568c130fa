"""Scores and the teacher's report for an attempt."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Grade:
    points: int
    max_points: int
    wrong: tuple
    unanswered: tuple

    @property
    def percent(self):
        return round(100 * self.points / self.max_points, 1) if self.max_points else 0.0


def grade(quiz, attempt):
    points, wrong, unanswered = 0, [], []
    for q in quiz.questions:
        choice = attempt.answers.get(q.qid)
        if choice is None:
            unanswered.append(q.qid)
        elif choice == q.correct:
            points += q.points
        else:
            wrong.append(q.qid)
    return Grade(points, quiz.max_points, tuple(wrong), tuple(unanswered))


def teacher_report(quiz, attempt):
    g = grade(quiz, attempt)
    lines = [f"{attempt.student}: {g.points}/{g.max_points} ({g.percent}%)"]
    for qid in attempt.progress.slowest(2):
        lines.append(f"  slow: Q{qid} {quiz.question(qid).prompt} ({attempt.progress.time_spent[qid]:.0f} s)")
    for qid in attempt.progress.marked:
        lines.append(f"  marked: Q{qid}")
    return "\n".join(lines)
