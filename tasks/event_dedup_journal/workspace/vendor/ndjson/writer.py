import json
import os


def encode(record, sort_keys=False):
    """One record as a line: compact separators, UTF-8 kept as text, no embedded newlines."""
    line = json.dumps(record, sort_keys=sort_keys, ensure_ascii=False)
    if "\n" in line:
        raise ValueError("a record cannot contain a raw newline")
    return line + "\n"


class Appender:
    """Appends records to a file; `durable=True` fsyncs after each record."""

    def __init__(self, path, sort_keys=False, durable=False):
        self.path = os.fspath(path)
        self.sort_keys = sort_keys
        self.durable = durable
        self.written = 0

    def append(self, record):
        data = encode(record, self.sort_keys).encode("utf-8")
        with open(self.path, "ab") as out:
            out.write(data)
            if self.durable:
                out.flush()
                os.fsync(out.fileno())
        self.written += 1
        return len(data)
