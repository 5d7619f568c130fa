"""Newsletter contacts built from CSV rows."""
import re
from dataclasses import dataclass, field

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.IGNORECASE)
YES = {"y", "yes", "true", "1", "x"}
NO = {"", "n", "no", "false", "0"}


class RowError(ValueError):
    pass


@dataclass(frozen=True)
class Contact:
    email: str
    first_name: str = ""
    last_name: str = ""
    consent: bool = False
    tags: tuple = field(default=())


def from_row(row):
    if "email" not in row:
        raise RowError("no email column")
    email = row["email"].lower()
    if not _EMAIL.match(email):
        raise RowError(f"not an email address: {row['email']!r}")
    consent_text = row.get("consent", "").strip().lower()
    if consent_text not in YES | NO:
        raise RowError(f"consent must be yes or no, got {row['consent']!r}")
    first, last = row.get("first_name", ""), row.get("last_name", "")
    if not first and not last and row.get("name"):
        first, _, last = row["name"].partition(" ")
    tags = tuple(sorted({t.strip().lower() for t in row.get("tags", "").split("|") if t.strip()}))
    return Contact(email, first, last, consent_text in YES, tags)


def display_name(contact):
    """How the contact is greeted in a mail: full name, first name, or the address."""
    full = f"{contact.first_name} {contact.last_name}".strip()
    return full or contact.email.split("@")[0]
