from dataclasses import dataclass, field

from patients import LEVELS


@dataclass
class HandoverNote:
    pid: str
    text: str
    author: str
    at_min: int


@dataclass
class Handover:
    """Notes passed from one shift's charge nurse to the next."""

    shift: str
    notes: list = field(default_factory=list)

    def note(self, pid, text, author, at_min):
        if not text.strip():
            raise ValueError("empty handover note")
        self.notes.append(HandoverNote(pid, text.strip(), author, at_min))

    def for_patient(self, pid):
        return [n.text for n in sorted(self.notes, key=lambda n: n.at_min) if n.pid == pid]


def handover_report(dept, handover, now_min):
    lines = [f"Handover {handover.shift} at {now_min // 60:02d}:{now_min % 60:02d}"]
    for bed in sorted(dept.beds):
        patient = dept.beds[bed]
        if patient is None:
            lines.append(f"  {bed}: empty")
            continue
        lines.append(f"  {bed}: {patient.pid} {patient.name} (L{patient.level})")
        for text in handover.for_patient(patient.pid):
            lines.append(f"      - {text}")
    waiting = dept.queue.waiting()
    lines.append(f"  waiting: {len(waiting)}")
    for pid in waiting[:3]:
        p = dept.queue._entries[pid][3]
        lines.append(f"    next: {pid} {p.name} L{p.level} {LEVELS[p.level]}")
    return lines


def level_counts(dept):
    counts = {level: 0 for level in LEVELS}
    for pid in dept.queue.waiting():
        counts[dept.queue._entries[pid][3].level] += 1
    return counts
