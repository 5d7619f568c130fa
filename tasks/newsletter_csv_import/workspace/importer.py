"""The import job: one uploaded file in, contacts added to the list, a per-line error report out."""
from dataclasses import dataclass, field

from contacts import RowError, from_row
from csvparse import CsvError, parse
from upload import decode_upload, fingerprint


@dataclass
class ImportResult:
    added: int = 0
    updated: int = 0
    skipped_duplicate_file: bool = False
    errors: list = field(default_factory=list)


class MailingList:
    def __init__(self, name):
        self.name = name
        self.contacts = {}
        self.seen_uploads = set()

    def import_file(self, data, only_consenting=True):
        result = ImportResult()
        text = decode_upload(data)
        print_key = fingerprint(text)
        if print_key in self.seen_uploads:
            result.skipped_duplicate_file = True
            return result
        try:
            _, rows = parse(text)
        except CsvError as exc:
            result.errors.append((0, str(exc)))
            return result
        for line, row in rows:
            try:
                contact = from_row(row)
            except RowError as exc:
                result.errors.append((line, str(exc)))
                continue
            if only_consenting and not contact.consent:
                result.errors.append((line, f"{contact.email} has not opted in"))
                continue
            if contact.email in self.contacts:
                result.updated += 1
            else:
                result.added += 1
            self.contacts[contact.email] = contact
        self.seen_uploads.add(print_key)
        return result

    def unsubscribe(self, email):
        """Remove a contact; True when one was on the list."""
        return self.contacts.pop(email.strip().lower(), None) is not None

    def tagged(self, tag):
        return sorted(e for e, c in self.contacts.items() if tag.lower() in c.tags)
