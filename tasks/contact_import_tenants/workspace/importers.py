"""Contact importers for the formats customers upload."""
import csv
import io
import json

from transforms import normalize_email, strip_whitespace


class Importer:
    """Parses an upload into contact dicts and runs the transform chain."""

    format = "base"
    transforms = [strip_whitespace]

    def add_transform(self, fn) -> None:
        self.transforms += [fn]

    def remove_transform(self, fn) -> None:
        self.transforms = [t for t in self.transforms if t is not fn]

    def parse(self, payload: str) -> list[dict]:
        raise NotImplementedError

    def run(self, payload: str) -> list[dict]:
        contacts = []
        for record in self.parse(payload):
            for transform in self.transforms:
                record = transform(record)
            contacts.append(record)
        return contacts


class CsvImporter(Importer):
    format = "csv"
    transforms = Importer.transforms + [normalize_email]

    def parse(self, payload: str) -> list[dict]:
        return [dict(row) for row in csv.DictReader(io.StringIO(payload))]


class JsonImporter(Importer):
    format = "json"

    def parse(self, payload: str) -> list[dict]:
        data = json.loads(payload)
        if not isinstance(data, list):
            raise ValueError("expected a JSON array of contacts")
        return data
