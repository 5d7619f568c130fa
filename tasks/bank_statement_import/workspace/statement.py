"""Reader for the bank's semicolon-separated statement export.

Exports run to tens of thousands of lines, so rows are streamed rather than
loaded whole. The first line is the header.
"""
from typing import Iterator


class StatementFormatError(ValueError):
    pass


REQUIRED = ("Booking date", "Amount", "Counterparty", "IBAN", "Memo")


def read_rows(text: str) -> Iterator[dict[str, str]]:
    lines = [l for l in text.splitlines() if l.strip()]
    if not lines:
        raise StatementFormatError("empty statement")
    header = [h.strip() for h in lines[0].split(";")]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise StatementFormatError(f"statement lacks columns {missing}")
    row: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=2):
        fields = [f.strip() for f in line.split(";")]
        if len(fields) != len(header):
            raise StatementFormatError(f"line {number}: {len(fields)} fields, header has {len(header)}")
        row.update(zip(header, fields))
        row["_line"] = str(number)
        yield row
