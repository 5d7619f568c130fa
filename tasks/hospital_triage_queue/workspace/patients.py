from dataclasses import dataclass, field

LEVELS = {1: "resuscitation", 2: "emergent", 3: "urgent", 4: "less urgent", 5: "non-urgent"}
TARGET_MINUTES = {1: 0, 2: 15, 3: 30, 4: 60, 5: 120}


class TriageError(ValueError):
    pass


@dataclass
class Patient:
    pid: str
    name: str
    level: int
    arrived_min: int
    complaints: list = field(default_factory=list)

    def __post_init__(self):
        if self.level not in LEVELS:
            raise TriageError(f"{self.pid}: level must be 1-5, got {self.level}")

    def overdue(self, now_min):
        return now_min - self.arrived_min > TARGET_MINUTES[self.level]


def assess(vitals):
    """A tiny version of a five-level acuity scale."""
    if vitals.get("unresponsive") or vitals.get("spo2", 100) < 85:
        return 1
    hr = vitals.get("hr", 80)
    if vitals.get("chest_pain") or hr > 130 or vitals.get("spo2", 100) < 92:
        return 2
    if vitals.get("pain", 0) >= 7 or vitals.get("temp", 37.0) >= 39.5:
        return 3
    if vitals.get("pain", 0) >= 4:
        return 4
    return 5


def describe(patient):
    complaints = ", ".join(patient.complaints) if patient.complaints else "no complaint recorded"
    return f"{patient.name} ({patient.pid}) L{patient.level} {LEVELS[patient.level]}: {complaints}"


def target_for(level):
    if level not in TARGET_MINUTES:
        raise TriageError(f"no target for level {level}")
    return TARGET_MINUTES[level]
