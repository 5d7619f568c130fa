import os

from exif import parse_record


def iter_records(path):
    with open(path, encoding="utf-8") as fh:
        return (parse_record(line) for line in fh if line.strip() and not line.startswith("#"))


def sidecar_paths(directory):
    return sorted(
        os.path.join(directory, name) for name in os.listdir(directory) if name.endswith(".exif")
    )


def iter_directory(directory):
    for path in sidecar_paths(directory):
        yield from iter_records(path)


def count_lines(path):
    with open(path, encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip() and not line.startswith("#"))


def read_header(path):
    header = {}
    with open(path, encoding="utf-8") as fh:
        lines = (line for line in fh if line.startswith("#"))
        for line in lines:
            if ":" in line:
                key, value = line[1:].split(":", 1)
                header[key.strip()] = value.strip()
    return header
