from settings import settings_for
from timetable import day_slots

GREETINGS = {"en-GB": "Timetable", "fr-FR": "Emploi du temps", "de-DE": "Stundenplan"}


def weekly_grid(school, lessons):
    """lessons: {(weekday, period): (subject, teacher)} -> printable rows."""
    cfg = settings_for(school)
    show_teacher = cfg["reports"]["show_teacher"]
    title = GREETINGS.get(cfg["reports"]["locale"], "Timetable")
    rows = [f"{title} - {school}"]
    for slot in day_slots(school):
        cells = []
        for day in range(5):
            lesson = lessons.get((day, slot.period))
            if lesson is None:
                cells.append("-".center(14))
                continue
            subject, teacher = lesson
            text = f"{subject} ({teacher})" if show_teacher else subject
            cells.append(text[:14].center(14))
        rows.append(f"{slot.start} |" + "|".join(cells) + "|")
    return rows


def teacher_load(lessons):
    load = {}
    for subject, teacher in lessons.values():
        load[teacher] = load.get(teacher, 0) + 1
    return dict(sorted(load.items()))


def clashes(lessons_by_class):
    """Teachers booked in two classes for the same weekday and period."""
    seen = {}
    found = []
    for cls in sorted(lessons_by_class):
        for key, (subject, teacher) in sorted(lessons_by_class[cls].items()):
            other = seen.get((teacher, key))
            if other is not None:
                found.append((teacher, key, other, cls))
            else:
                seen[(teacher, key)] = cls
    return found
