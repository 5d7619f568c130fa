"""Merges an edited CSV back into the contact book and reports what actually changed."""
from dataclasses import dataclass, field

from csv_exchange import import_contacts


@dataclass
class SyncReport:
    added: list = field(default_factory=list)
    updated: list = field(default_factory=list)
    problems: list = field(default_factory=list)


class ContactBook:
    def __init__(self, contacts=()):
        self._by_id = {c.contact_id: c for c in contacts}

    def get(self, contact_id):
        return self._by_id.get(contact_id)

    def all(self):
        return list(self._by_id.values())

    def sync_from_csv(self, path) -> SyncReport:
        incoming, problems = import_contacts(path)
        report = SyncReport(problems=problems)
        for contact in incoming:
            current = self._by_id.get(contact.contact_id)
            if current is None:
                report.added.append(contact.contact_id)
            elif current != contact:
                report.updated.append(contact.contact_id)
            self._by_id[contact.contact_id] = contact
        return report
