"""Reading the CSV itself: delimiter, header names, rows as dicts keyed by normalised header."""
import csv
import io
import re

ALIASES = {
    "e_mail": "email",
    "email_address": "email",
    "mail": "email",
    "first": "first_name",
    "firstname": "first_name",
    "last": "last_name",
    "surname": "last_name",
    "opt_in": "consent",
    "subscribed": "consent",
}


class CsvError(ValueError):
    pass


def normalise_header(name):
    key = re.sub(r"[\s\-.]+", "_", name.strip().lower()).strip("_")
    return ALIASES.get(key, key)


def sniff_delimiter(first_line):
    counts = {d: first_line.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=counts.get)
    return best if counts[best] else ","


def parse(text):
    """(headers, rows) where rows are (line number, {header: value}) pairs; blank lines are skipped."""
    lines = text.split("\n")
    delimiter = sniff_delimiter(lines[0])
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        raw_headers = next(reader)
    except StopIteration:
        raise CsvError("no header row") from None
    headers = [normalise_header(h) for h in raw_headers]
    duplicates = sorted({h for h in headers if headers.count(h) > 1})
    if duplicates:
        raise CsvError(f"duplicate columns: {', '.join(duplicates)}")
    rows = []
    for values in reader:
        if not any(v.strip() for v in values):
            continue
        if len(values) != len(headers):
            raise CsvError(f"line {reader.line_num}: {len(values)} fields, header has {len(headers)}")
        rows.append((reader.line_num, dict(zip(headers, (v.strip() for v in values)))))
    return headers, rows
