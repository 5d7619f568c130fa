"""Report names and where they live on disk."""
import os
import re
import threading

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def validate_name(name):
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"invalid report name {name!r}: use 1-64 of [a-z0-9_-]")
    return name


def report_path(root, name):
    return os.path.join(root, validate_name(name) + ".report.gz")


def temp_path(root, name):
    # Unique per process and thread so two writers never share a temporary file.
    return os.path.join(root, f".{validate_name(name)}.{os.getpid()}.{threading.get_ident()}.part")
