"""The texts the model reads about the program: source windows, stops, the end of a run, thread stacks and the
breakpoint list (workspace-relative paths come from paths.py). Pure functions of the debugger's state (tracer.py), no
protocol."""
from __future__ import annotations

import linecache
import os
import sys
import threading
import types
from typing import TYPE_CHECKING, cast

from .paths import WORKSPACE, rel
from .reprs import brepr, safe_str

if TYPE_CHECKING:
    from .tracer import BridgeDebugger, Ended, Stop

STACK_FRAMES = 8  # project frames shown per stack: enough for test -> helper -> bug, short enough to read
CONTEXT_LINES = 2  # source lines each side of the current line in a stop


def shown(text: str, limit: int = 200) -> str:
    """A model-given string echoed in an error: bounded, on one line."""
    flat = str(text).replace("\n", " ")
    return flat if len(flat) <= limit else flat[:limit] + "…"


def python_files(limit: int = 20, budget: int = 2000, max_depth: int = 8) -> tuple[list[str], int]:
    """Up to ``limit`` workspace .py files (sorted, shallow first) and how many more were seen, looking at no more
    than ``budget`` entries and ``max_depth`` folders deep: the workspace may be a very deep or very wide tree."""
    found: list[str] = []
    pending = [("", 0)]
    seen = 0
    while pending and seen < budget:
        rel_dir, depth = pending.pop(0)
        try:
            entries = sorted(os.scandir(os.path.join(WORKSPACE, rel_dir)), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            seen += 1
            name = os.path.join(rel_dir, e.name) if rel_dir else e.name
            try:
                if e.is_dir(follow_symlinks=False):
                    if depth + 1 < max_depth and not e.name.startswith("."):
                        pending.append((name, depth + 1))
                elif e.name.endswith(".py"):
                    found.append(name)
            except OSError:
                continue
    return found[:limit], max(0, len(found) - limit)


def source_window(path: str, line: int, around: int = CONTEXT_LINES) -> str:
    linecache.checkcache(path)
    out = []
    for n in range(max(1, line - around), line + around + 1):
        text = linecache.getline(path, n)
        if not text and n > line:
            break
        out.append(f"{'->' if n == line else '  '} {n:4d} {text.rstrip()}")
    return "\n".join(out)


def frame_label(frame: types.FrameType) -> str:
    code = frame.f_code
    return f"{rel(code.co_filename)}:{frame.f_lineno} in {getattr(code, 'co_qualname', code.co_name)}"


def project_stack(dbg: BridgeDebugger, frame: types.FrameType | None) -> list[types.FrameType]:
    frames = []
    while frame is not None:
        if dbg.is_project(frame):
            frames.append(frame)
        frame = frame.f_back
    return frames


def describe_stop(dbg: BridgeDebugger, stop: Stop) -> dict:
    frame = stop.frame
    where = frame_label(frame)
    headline = {
        "start": f"Stopped before the test body at {where}",
        "breakpoint": f"Stopped at breakpoint {stop.bp} ({where})",
        "step": f"Stopped at {where}",
        "interrupted": f"Interrupted at {where}",
    }[stop.reason]
    if threading.main_thread().ident != stop.thread_id:
        headline += f" [thread {stop.thread_name}]"
    lines = [headline]
    if stop.event == "return":
        lines.append(f"Returning from {frame.f_code.co_name}() with value: {brepr(stop.value)}")
    elif stop.event == "exception":
        lines.append(f"Exception raised: {brepr(safe_str(cast(BaseException, stop.value)))[1:-1]}")  # the one raised
    lines.append(source_window(frame.f_code.co_filename, frame.f_lineno))
    stack = project_stack(dbg, frame)
    if len(stack) > 1:
        lines.append("Stack (project frames, innermost first):")
        lines += [f"  {frame_label(f)}" for f in stack[:STACK_FRAMES]]
        if len(stack) > STACK_FRAMES:
            lines.append(f"  … {len(stack) - STACK_FRAMES} more frames")
    return {
        "state": "paused",
        "text": "\n".join(lines),
        "file": rel(frame.f_code.co_filename),
        "line": frame.f_lineno,
        "function": frame.f_code.co_name,
        "reason": stop.reason,
    }


def never_hit(dbg: BridgeDebugger) -> list[str]:
    out = []
    for path, lines in dbg.get_all_breaks().items():
        for line in lines:
            if (path, line) not in dbg.hit:
                out.append(f"{rel(path)}:{line}")
    return out


def describe_ended(dbg: BridgeDebugger, ended: Ended) -> dict:
    lines = []
    if ended.error:
        lines.append(f"The debugger could not run the test: {ended.error}")
    elif not ended.outcomes:
        lines.append(f"The program finished without running any test (pytest exit status {ended.exit_status}); see the program output.")
    else:
        parts = []
        for test, outcome in ended.outcomes.items():
            msg = ended.messages.get(test)
            parts.append(f"{test} {outcome}" + (f": {msg}" if msg else ""))
        lines.append("The program finished. " + "; ".join(parts) + f" (pytest exit status {ended.exit_status}).")
    never = never_hit(dbg)
    if never:
        lines.append("Breakpoints never hit: " + ", ".join(never))
    lines.append("start_debugger runs the test again (breakpoints are kept).")
    return {"state": "ended", "text": "\n".join(lines), "never_hit": never, "outcomes": ended.outcomes}


def thread_stacks(dbg: BridgeDebugger) -> str:
    names = {t.ident: t for t in threading.enumerate()}
    lines = []
    for ident, frame in sys._current_frames().items():
        if ident == dbg.reader_ident:
            continue
        stack = project_stack(dbg, frame)
        t = names.get(ident)
        label = t.name if t else str(ident)
        if not stack:
            lines.append(f"Thread {label}: (no project frames: inside pytest or the library)")
            continue
        lines.append(f"Thread {label}:")
        for f in stack[:STACK_FRAMES]:
            lines.append(f"  {frame_label(f)}: {linecache.getline(f.f_code.co_filename, f.f_lineno).strip()}")
    return "\n".join(lines)


def list_text(dbg: BridgeDebugger) -> str:
    items = []
    for path, lines in sorted(dbg.get_all_breaks().items()):
        for line in sorted(set(lines)):
            bps = dbg.get_breaks(path, line)
            cond = next((b.cond for b in bps if b.cond), None)
            hits = "hit" if (path, line) in dbg.hit else "not hit yet"
            items.append(f"{rel(path)}:{line}" + (f" if {cond}" if cond else "") + f" ({hits})")
    return "Breakpoints: " + (", ".join(items) if items else "none")
