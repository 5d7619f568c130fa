"""Quizzes and a student's attempt at one."""
from dataclasses import dataclass, field

from progress import Progress


class AttemptClosed(RuntimeError):
    pass


@dataclass(frozen=True)
class Question:
    qid: int
    prompt: str
    choices: tuple
    correct: int
    points: int = 1


@dataclass
class Quiz:
    quiz_id: str
    title: str
    questions: list

    def question(self, qid):
        for q in self.questions:
            if q.qid == qid:
                return q
        raise KeyError(f"quiz {self.quiz_id} has no question {qid}")

    @property
    def max_points(self):
        return sum(q.points for q in self.questions)


@dataclass
class Attempt:
    attempt_id: str
    quiz_id: str
    student: str
    answers: dict = field(default_factory=dict)
    progress: Progress = field(default_factory=Progress)
    submitted: bool = False

    def answer(self, quiz, qid, choice, seconds=0.0):
        if self.submitted:
            raise AttemptClosed(f"attempt {self.attempt_id} was submitted")
        question = quiz.question(qid)
        if not 0 <= choice < len(question.choices):
            raise ValueError(f"question {qid} has no choice {choice}")
        self.answers[qid] = choice
        self.progress.record(qid, seconds)

    def submit(self):
        self.submitted = True
