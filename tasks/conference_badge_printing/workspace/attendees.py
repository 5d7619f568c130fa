import csv
import io
from dataclasses import dataclass, field

ROLES = ("attendee", "speaker")


class RegistrationError(ValueError):
    pass


@dataclass
class Attendee:
    ref: str
    name: str
    role: str = "attendee"
    company: str = ""
    pronouns: str = ""
    talk: str = ""
    vip: bool = False
    ribbons: list = field(default_factory=list)

    def __post_init__(self):
        if self.role not in ROLES:
            raise RegistrationError(f"{self.ref}: unknown role {self.role!r}")
        if not self.name.strip():
            raise RegistrationError(f"{self.ref}: name required")


def parse_registrations(text):
    reader = csv.DictReader(io.StringIO(text.strip()))
    out = []
    for row in reader:
        ribbons = [r.strip().upper() for r in row.get("ribbons", "").split(";") if r.strip()]
        out.append(Attendee(
            ref=row["ref"], name=row["name"], role=row.get("role") or "attendee",
            company=row.get("company", ""), pronouns=row.get("pronouns", ""), talk=row.get("talk", ""),
            vip=row.get("vip", "").lower() in ("yes", "y", "1"), ribbons=ribbons,
        ))
    return out


def by_role(attendees):
    out = {}
    for a in attendees:
        out.setdefault(a.role, []).append(a.ref)
    return out
