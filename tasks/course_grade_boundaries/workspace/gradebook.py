"""The learning platform's gradebook export: one CSV row per graded submission."""
import csv
import io
from collections import defaultdict

from scoring import Submission
from transcript import course_result

COLUMNS = ("student", "course", "component", "points", "out_of", "days_late")


class GradebookError(ValueError):
    def __init__(self, line, message):
        super().__init__(f"line {line}: {message}")
        self.line = line


def _number(text, line, column):
    try:
        value = float(text)
    except ValueError:
        raise GradebookError(line, f"{column} is not a number: {text!r}") from None
    if value < 0:
        raise GradebookError(line, f"{column} may not be negative")
    return value


def read_gradebook(text, components=("homework", "midterm", "final")):
    """{(student, course): [Submission, ...]} from the CSV export."""
    reader = csv.DictReader(io.StringIO(text.strip()))
    if tuple(reader.fieldnames or ()) != COLUMNS:
        raise GradebookError(1, f"expected columns {', '.join(COLUMNS)}")
    out = defaultdict(list)
    for line, row in enumerate(reader, start=2):
        component = row["component"].strip().lower()
        if component not in components:
            raise GradebookError(line, f"unknown component {row['component']!r}")
        days = row["days_late"].strip() or "0"
        if not days.isdigit():
            raise GradebookError(line, f"days_late must be a whole number, got {days!r}")
        sub = Submission(component, _number(row["points"], line, "points"), _number(row["out_of"], line, "out_of"), int(days))
        if sub.out_of == 0:
            raise GradebookError(line, "out_of may not be zero")
        out[(row["student"].strip(), row["course"].strip().upper())].append(sub)
    return dict(out)


def term_results(gradebook, student, credits, policy):
    """The student's CourseResult for every course in `credits` (course -> credit hours)."""
    results = []
    for course, hours in sorted(credits.items()):
        results.append(course_result(course, hours, gradebook.get((student, course), []), policy))
    return results


def missing_components(gradebook, student, credits, components=("homework", "midterm", "final")):
    """{course: [component, ...]} of the work with no graded submission yet."""
    out = {}
    for course in sorted(credits):
        seen = {s.component for s in gradebook.get((student, course), [])}
        missing = [c for c in components if c not in seen]
        if missing:
            out[course] = missing
    return out


def students(gradebook):
    return sorted({student for student, _ in gradebook})
