"""pytest plugin: one JSON line per test outcome, written to the file named by $DEBUGRL_REPORT.

The grader loads it with ``-p debugrl_native.debugger.pytest_report``. It first writes the collected node ids, so a
run killed by the wall clock still tells which tests never reported (the grader marks those ``timeout``).
Outcomes: ``passed``, ``failed`` (the test body failed), ``error`` (setup/teardown or collection failed),
``skipped`` (including xfail).
"""
from __future__ import annotations

import json
import os

_path = os.environ.get("DEBUGRL_REPORT")
_outcomes: dict[str, str] = {}


def _write(record: dict) -> None:
    if not _path:
        return
    with open(_path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


def pytest_collection_finish(session) -> None:
    _write({"collected": [item.nodeid for item in session.items]})


def pytest_collectreport(report) -> None:
    if report.failed:
        _write({"collect_error": report.nodeid or "<session>", "message": str(report.longrepr)[-2000:]})


def pytest_runtest_logreport(report) -> None:
    # A test produces up to three reports (setup, call, teardown); the worst one wins.
    if report.when == "call":
        outcome = "skipped" if report.skipped else ("passed" if report.passed else "failed")
    elif report.failed:
        outcome = "error"
    elif report.skipped:
        outcome = "skipped"
    else:
        return
    prev = _outcomes.get(report.nodeid)
    rank = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
    if prev is not None and rank[prev] >= rank[outcome]:
        return
    _outcomes[report.nodeid] = outcome
    message = None
    if report.failed and report.longrepr is not None:
        crash = getattr(report.longrepr, "reprcrash", None)
        message = crash.message if crash is not None else str(report.longrepr)[-500:]
    _write({"test": report.nodeid, "outcome": outcome, "when": report.when, "message": message})
