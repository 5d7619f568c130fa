"""Retention rules for the report archive: keep recent reports, drop the rest."""
import os
import time
from dataclasses import dataclass

from naming import report_path


@dataclass(frozen=True)
class RetentionRule:
    keep_days: int = 90
    keep_at_least: int = 5

    def __post_init__(self):
        if self.keep_days < 1 or self.keep_at_least < 0:
            raise ValueError("keep_days must be >= 1 and keep_at_least >= 0")


def expired_reports(archive, rule, now=None):
    """Names of reports older than the rule allows, oldest first.

    The newest `keep_at_least` reports are kept whatever their age, so a quiet
    quarter never empties the archive.
    """
    now = time.time() if now is None else now
    aged = sorted(
        (os.path.getmtime(report_path(archive.root, name)), name) for name in archive.names()
    )
    candidates = aged[: max(0, len(aged) - rule.keep_at_least)]
    cutoff = now - rule.keep_days * 86400
    return [name for mtime, name in candidates if mtime < cutoff]


def prune(archive, rule, now=None):
    removed = []
    for name in expired_reports(archive, rule, now):
        os.remove(report_path(archive.root, name))
        removed.append(name)
    return removed
