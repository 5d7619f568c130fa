"""Cell addresses: A1 notation and ranges."""
import re

_REF = re.compile(r"^([A-Z]{1,3})([1-9][0-9]*)$")


def split_ref(ref):
    m = _REF.match(ref)
    if not m:
        raise ValueError(f"not a cell reference: {ref!r}")
    return m.group(1), int(m.group(2))


def column_index(letters):
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n


def column_name(index):
    out = ""
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


def expand_range(start, end):
    c1, r1 = split_ref(start)
    c2, r2 = split_ref(end)
    cols = range(min(column_index(c1), column_index(c2)), max(column_index(c1), column_index(c2)) + 1)
    rows = range(min(r1, r2), max(r1, r2) + 1)
    return [f"{column_name(c)}{r}" for r in rows for c in cols]
