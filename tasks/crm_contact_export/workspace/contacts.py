"""Contacts as the CRM keeps them."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Contact:
    contact_id: str
    name: str
    email: str
    company: str = ""
    notes: str = ""

    def __post_init__(self):
        if not self.contact_id:
            raise ValueError("contact_id is required")
        if "@" not in self.email:
            raise ValueError(f"contact {self.contact_id}: invalid email {self.email!r}")


COLUMNS = ("contact_id", "name", "email", "company", "notes")
