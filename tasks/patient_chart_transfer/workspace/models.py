"""Clinical records carried in a patient chart."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class VitalSign:
    kind: str
    value: float
    unit: str
    taken_at: str


@dataclass(frozen=True)
class BloodPressure:
    systolic: int
    diastolic: int
    taken_at: str

    @property
    def hypertensive(self):
        return self.systolic >= 140 or self.diastolic >= 90


@dataclass(frozen=True)
class LabResult:
    test: str
    value: float
    unit: str
    ref_low: float
    ref_high: float

    @property
    def flag(self):
        if self.value < self.ref_low:
            return "L"
        if self.value > self.ref_high:
            return "H"
        return ""


@dataclass(frozen=True)
class Medication:
    name: str
    dose_mg: float
    per_day: int


@dataclass(frozen=True)
class Allergy:
    substance: str
    reaction: str = ""
    severity: str = "moderate"


@dataclass(frozen=True)
class Encounter:
    encounter_id: str = ""
    department: str = ""
    reason: str = ""
    started_at: str = ""


@dataclass
class PatientChart:
    mrn: str
    name: str
    vitals: list = field(default_factory=list)
    labs: list = field(default_factory=list)
    medications: list = field(default_factory=list)
    allergies: list = field(default_factory=list)
    encounters: list = field(default_factory=list)
