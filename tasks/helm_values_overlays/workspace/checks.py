"""Checks a chart's resolved values before they are rendered."""
import re

from vendor.overlaykit import flatten, get_path

_QUANTITY = re.compile(r"^\d+(\.\d+)?(m|Mi|Gi)?$")
REQUIRED = ("image.repository", "image.tag", "replicas", "resources.requests.cpu", "resources.requests.memory")


class InvalidValues(ValueError):
    def __init__(self, problems):
        super().__init__("; ".join(problems))
        self.problems = problems


def check_values(values):
    problems = []
    flat = flatten(values)
    for path in REQUIRED:
        if get_path(values, path, default=None) in (None, ""):
            problems.append(f"{path} is required")
    replicas = values.get("replicas")
    if replicas is not None and (not isinstance(replicas, int) or replicas < 0):
        problems.append(f"replicas must be a non-negative integer, got {replicas!r}")
    for path, value in flat.items():
        if path.startswith("resources.") and value is not None and not _QUANTITY.match(str(value)):
            problems.append(f"{path}: {value!r} is not a quantity")
    if problems:
        raise InvalidValues(problems)
    return values


def parse_cpu(quantity):
    text = str(quantity)
    return int(text[:-1]) if text.endswith("m") else int(float(text) * 1000)


def parse_memory_mi(quantity):
    text = str(quantity)
    if text.endswith("Gi"):
        return int(float(text[:-2]) * 1024)
    if text.endswith("Mi"):
        return int(float(text[:-2]))
    return int(text) // (1024 * 1024)
