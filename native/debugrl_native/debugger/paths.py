"""Where the workspace is, and a path as the model sees it (relative to the workspace). Its own module because both
the tracer (which frames are the project's) and the texts the model reads (formatting.py) need it, and formatting.py
describes the tracer's state: kept in either, it made an import cycle."""
from __future__ import annotations

import os

WORKSPACE = os.path.realpath(os.environ.get("DEBUGRL_WORKSPACE", "/workspace"))

_rel_cache: dict[str, str] = {}


def rel(path: str) -> str:
    # Cached per path, like BridgeDebugger.is_project: a stop labels up to ten frames, and realpath's lstat of every
    # path component was about a third of a step_over's time in the bridge.
    shown = _rel_cache.get(path)
    if shown is None:
        real = os.path.realpath(path)
        shown = os.path.relpath(real, WORKSPACE) if real.startswith(WORKSPACE + os.sep) else path
        _rel_cache[path] = shown
    return shown
