"""The debugger bridge: a real ``bdb.Bdb`` debugger running one pytest test, driven over a JSON-lines protocol.

    python -m debugrl_native.debugger.bridge --test test_x.py::test_y [--in-fd 3] [--out-fd 4]
    python -m debugrl_native.debugger.bridge --prewarm [--in-fd 3] [--out-fd 4]   # the test comes with ``start``

Why a protocol and not a pdb prompt: the model only ever issues structured commands (add_breakpoint(file, line) …),
each validated here against the program's real state, so there is no raw command string that can be malformed, and
the program's own stdout/stderr (fds 1 and 2) never mix with the debugger's replies (fds 3 and 4).

Threads. The main thread runs pytest; a reader thread (started before tracing, so never traced) receives commands.
Inspection commands run on the reader thread against the paused frame. A thread that stops (breakpoint, step,
interrupt) blocks in ``interaction`` until the reader tells it how to resume; only one thread is stopped at a time,
others that hit a breakpoint meanwhile queue behind it. Breakpoints work in every thread the program starts
(``threading.settrace``). Stepping follows the thread that was stopped; other threads only stop at breakpoints.

Hangs. ``continue`` waits a bounded time for the next stop. If none comes, the bridge asks every thread to stop at
its next project line (this catches busy loops); a thread blocked in a lock or a wait runs no Python and cannot
stop, so the reply is "still running after N s" with every thread's project frames. The session stays usable.

Pre-warming (``--prewarm``, see prewarm.py). The process imports pytest and its plugins, with the workspace off
sys.path, before it knows the test, then waits; ``start`` names the test. If a cold start would now import something
differently (a workspace file shadows a module already loaded) or the pre-warm failed, ``start`` answers
``{"state": "stale"}`` without running anything, and the harness starts a cold bridge instead.

Reply: ``{"id", "ok": true, "state": "paused"|"running"|"ended", "text": …, …}`` or ``{"id", "ok": false,
"error": …}``. Events the reader did not ask for are never sent: stops are delivered as replies to the command that
resumed the program (or to ``start``).
"""
from __future__ import annotations

import argparse
import bdb
import inspect
import json
import linecache
import os
import queue
import stat
import sys
import threading
import traceback
import types
from dataclasses import dataclass, field

from .lines import LineTable, line_table, nearest
from .prewarm import Warmed, prewarm
from .reprs import DEFAULT, ReprLimits, brepr, format_locals, safe_str

WORKSPACE = os.path.realpath(os.environ.get("DEBUGRL_WORKSPACE", "/workspace"))
STACK_FRAMES = 8  # project frames shown per stack: enough for test -> helper -> bug, short enough to read
CONTEXT_LINES = 2  # source lines each side of the current line in a stop
INTERRUPT_GRACE_S = 0.3  # how long a busy thread gets to reach its next project line after an interrupt
PRINT_LIMITS = ReprLimits(depth=4, items=20, string=1000, attrs=16)  # print_variable asks for one value: show more
MAX_SOURCE_BYTES = 4 * 1024 * 1024  # largest file a breakpoint may go in


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


@dataclass
class Stop:
    thread_id: int
    thread_name: str
    frame: types.FrameType
    event: str  # line | return | exception
    reason: str  # start | breakpoint | step | interrupted
    value: object = None
    bp: str | None = None


@dataclass
class Ended:
    exit_status: int
    outcomes: dict[str, str] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    error: str | None = None


class BridgeDebugger(bdb.Bdb):
    def __init__(self) -> None:
        super().__init__()
        self.events: queue.Queue[Stop | Ended] = queue.Queue()
        self.paused: Stop | None = None
        self.pause_lock = threading.Lock()
        self.resume = threading.Event()
        self.entry_code: types.CodeType | None = None
        self.step_thread: int | None = None
        self.interrupt = False
        self.ended: Ended | None = None
        self.hit: set[tuple[str, int]] = set()
        self.reader_ident: int | None = None
        self._project: dict[str, bool] = {}
        self._tables: dict[str, tuple[float, LineTable]] = {}

    # ----- where the debugger may stop -----
    def is_project(self, frame: types.FrameType) -> bool:
        name = frame.f_code.co_filename
        known = self._project.get(name)
        if known is None:
            known = not name.startswith("<") and os.path.realpath(name).startswith(WORKSPACE + os.sep)
            self._project[name] = known
        return known

    def stop_here(self, frame: types.FrameType) -> bool:
        if self.entry_code is not None and frame.f_code is self.entry_code:
            return True
        if not self.is_project(frame):
            return False
        if self.interrupt:
            return True
        if self.step_thread != threading.get_ident():
            return False  # stepping follows one thread; the others stop only at breakpoints
        return super().stop_here(frame)

    def user_call(self, frame, argument_list):  # stop at the first line, not at the call event
        pass

    def user_line(self, frame):
        key = (self.canonic(frame.f_code.co_filename), frame.f_lineno)
        bp = f"{rel(key[0])}:{key[1]}" if self.get_breaks(*key) else None
        if bp:
            self.hit.add(key)
        if self.entry_code is not None and frame.f_code is self.entry_code:
            reason = "start"
        elif self.interrupt:
            reason = "interrupted"
        else:
            reason = "breakpoint" if bp and self.step_thread != threading.get_ident() else "step"
        self.interaction(frame, "line", reason, bp=bp)

    def user_return(self, frame, return_value):
        if self.is_project(frame) and self.step_thread == threading.get_ident():
            self.interaction(frame, "return", "step", value=return_value)

    def user_exception(self, frame, exc_info):
        if self.is_project(frame) and self.step_thread == threading.get_ident() and super().stop_here(frame):
            self.interaction(frame, "exception", "step", value=exc_info[1])

    def interaction(self, frame, event, reason, value=None, bp=None):
        with self.pause_lock:
            if self.ended is not None and threading.current_thread() is threading.main_thread():
                return
            self.entry_code = None
            self.interrupt = False
            me = threading.current_thread()
            self.paused = Stop(me.ident or 0, me.name, frame, event, reason, value, bp)
            self.resume.clear()
            self.events.put(self.paused)
            self.resume.wait()
            self.paused = None

    # ----- resuming -----
    def resume_as(self, mode: str) -> None:
        stop = self.paused
        assert stop is not None
        frame = stop.frame
        if mode == "continue":
            self.step_thread = None
            self._set_stopinfo(None, None)
        else:
            self.step_thread = stop.thread_id
            # Frames entered while not stepping have no local trace function; give the whole paused stack one so
            # stepping out of a function stops in its caller.
            f = frame
            while f is not None:
                f.f_trace = self.trace_dispatch
                f = f.f_back
            if mode == "step_over":
                self.set_next(frame)
            elif mode == "step_into":
                self.set_step()
            elif mode == "step_out":
                self.set_return(frame)
        self.resume.set()

    def request_interrupt(self) -> None:
        self.interrupt = True
        for ident, frame in sys._current_frames().items():
            if ident == self.reader_ident:
                continue
            f = frame
            while f is not None:
                if self.is_project(f):
                    f.f_trace = self.trace_dispatch
                f = f.f_back

    # ----- breakpoints -----
    def table(self, path: str) -> LineTable:
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode):
                raise CommandError(f"{rel(path)} is not a regular file")
            cached = self._tables.get(path)
            if cached and cached[0] == st.st_mtime:
                return cached[1]
            if st.st_size > MAX_SOURCE_BYTES:
                raise CommandError(f"{rel(path)} is {st.st_size} bytes; breakpoints go in source files up to {MAX_SOURCE_BYTES}")
            with open(path, encoding="utf-8") as f:
                source = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise CommandError(f"{rel(path)} cannot be read: {safe_str(e, 160)}")
        try:
            table = line_table(source, path)
        except (ValueError, RecursionError, MemoryError) as e:  # NUL bytes, nesting too deep for the compiler
            raise CommandError(f"{rel(path)} does not compile: {safe_str(e, 160)}")
        mtime = st.st_mtime
        self._tables[path] = (mtime, table)
        return table


class CommandError(Exception):
    """A mistake by the agent: becomes an ok:false reply the model reads."""


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


def resolve_project_file(file: str) -> str:
    try:
        path = os.path.realpath(file if os.path.isabs(file) else os.path.join(WORKSPACE, file))
        is_file = os.path.isfile(path)
    except (OSError, ValueError) as e:  # a name too long, a NUL, text the file system cannot encode
        raise CommandError(f"{shown(file)} is not a usable path: {safe_str(e, 120)}")
    if not path.startswith(WORKSPACE + os.sep):
        raise CommandError(f"{shown(file)} is outside the workspace ({WORKSPACE}); breakpoints can only go in project files")
    if not is_file:
        py, more = python_files()
        listing = ", ".join(py) + (f" … {more} more" if more else "")
        raise CommandError(f"no such file: {shown(file)}. Python files in the workspace: {listing or '(none)'}")
    if not path.endswith(".py"):
        raise CommandError(f"{shown(file)} is not a Python file")
    return path


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


class Bridge:
    def __init__(self, dbg: BridgeDebugger, out, test: str | None = None) -> None:
        self.dbg = dbg
        self.out = out
        self.out_lock = threading.Lock()
        self.go = threading.Event()
        self.test = test  # None until ``start`` names it (a pre-warmed bridge)
        self.warm: Warmed | None = None
        self.warmed = threading.Event()

    def send(self, obj: dict) -> None:
        for stream in (sys.stdout, sys.stderr):  # program output first, so it travels ahead of the reply
            try:
                stream.flush()
            except Exception:
                pass
        with self.out_lock:
            self.out.write(json.dumps(obj) + "\n")
            self.out.flush()

    # ----- state descriptions -----
    def project_stack(self, frame: types.FrameType | None) -> list[types.FrameType]:
        frames = []
        while frame is not None:
            if self.dbg.is_project(frame):
                frames.append(frame)
            frame = frame.f_back
        return frames

    def describe_stop(self, stop: Stop) -> dict:
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
            lines.append(f"Exception raised: {brepr(safe_str(stop.value))[1:-1]}")
        lines.append(source_window(frame.f_code.co_filename, frame.f_lineno))
        stack = self.project_stack(frame)
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

    def never_hit(self) -> list[str]:
        out = []
        for path, lines in self.dbg.get_all_breaks().items():
            for line in lines:
                if (path, line) not in self.dbg.hit:
                    out.append(f"{rel(path)}:{line}")
        return out

    def describe_ended(self, ended: Ended) -> dict:
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
        never = self.never_hit()
        if never:
            lines.append("Breakpoints never hit: " + ", ".join(never))
        lines.append("start_debugger runs the test again (breakpoints are kept).")
        return {"state": "ended", "text": "\n".join(lines), "never_hit": never, "outcomes": ended.outcomes}

    def thread_stacks(self) -> str:
        names = {t.ident: t for t in threading.enumerate()}
        lines = []
        for ident, frame in sys._current_frames().items():
            if ident == self.dbg.reader_ident:
                continue
            stack = self.project_stack(frame)
            t = names.get(ident)
            label = t.name if t else str(ident)
            if not stack:
                lines.append(f"Thread {label}: (no project frames: inside pytest or the library)")
                continue
            lines.append(f"Thread {label}:")
            for f in stack[:STACK_FRAMES]:
                lines.append(f"  {frame_label(f)}: {linecache.getline(f.f_code.co_filename, f.f_lineno).strip()}")
        return "\n".join(lines)

    def focus_frame(self) -> tuple[types.FrameType, str]:
        """The frame inspection commands use: the paused frame, or while running the innermost project frame of the
        main thread (else of the first thread that has one)."""
        if self.dbg.paused is not None:
            return self.dbg.paused.frame, ""
        if self.dbg.ended is not None:
            raise CommandError("the program has finished; start_debugger runs the test again")
        frames = sys._current_frames()
        main = threading.main_thread().ident
        order = [main] + [i for i in frames if i not in (main, self.dbg.reader_ident)]
        names = {t.ident: t.name for t in threading.enumerate()}
        for ident in order:
            stack = self.project_stack(frames.get(ident))
            if stack:
                return stack[0], f"(program running; showing {frame_label(stack[0])} in thread {names.get(ident, ident)})\n"
        raise CommandError("the program is running and no thread is in project code right now; continue_execution or stop_debugger")

    # ----- waiting for the program -----
    def wait_event(self, wait: float) -> dict:
        try:
            event = self.dbg.events.get(timeout=wait)
        except queue.Empty:
            self.dbg.request_interrupt()
            try:
                event = self.dbg.events.get(timeout=INTERRUPT_GRACE_S)
            except queue.Empty:
                self.dbg.interrupt = False
                return {
                    "state": "running",
                    "text": f"Still running after {wait:g} s: no breakpoint was reached and the program has not finished "
                    f"(a thread may be blocked on a lock or a wait).\nThreads (project frames, innermost first):\n"
                    f"{self.thread_stacks()}\nThe session is live: continue_execution waits again, where_am_i shows the "
                    f"threads, examine_locals and print_variable read the main thread's innermost project frame, "
                    f"stop_debugger ends the program.",
                }
        if isinstance(event, Ended):
            return self.describe_ended(event)
        return self.describe_stop(event)

    # ----- commands -----
    def handle(self, cmd: str, args: dict) -> dict:
        dbg = self.dbg
        if cmd == "start":
            wait = float(args.get("wait", 10))
            test = args.get("test")
            if test is not None and (not isinstance(test, str) or not test.strip()):
                raise CommandError(f"start: test must be a pytest node id, got {test!r}")
            if self.test is None:
                if test is None:
                    raise CommandError("start: this bridge was pre-warmed and needs the test to run")
                # Waiting for the pre-warm costs nothing extra: a cold bridge would do the same imports now.
                if not self.warmed.wait(wait) or self.warm is None:
                    return {"state": "stale", "text": f"the pre-warm did not finish within {wait:g} s"}
                stale = self.warm.stale_reason(WORKSPACE)
                if stale:
                    return {"state": "stale", "text": stale}
                self.test = test
            elif test is not None and test != self.test:
                raise CommandError(f"start: this bridge runs {self.test}, not {test}")
            self.go.set()
            return self.wait_event(wait)
        if cmd in ("continue", "step_over", "step_into", "step_out"):
            wait = float(args.get("wait", 5))
            if dbg.paused is None and dbg.ended is not None:
                raise CommandError("no program is running: it has finished. start_debugger runs the test again")
            if dbg.paused is None:
                if cmd != "continue":
                    raise CommandError(f"cannot {cmd.replace('_', ' ')}: the program is running, not stopped at a line. "
                                       "continue_execution waits for it again; where_am_i shows its threads; stop_debugger ends it")
                return self.wait_event(wait)
            dbg.resume_as(cmd)
            return self.wait_event(wait)
        if cmd == "where":
            if dbg.paused is not None:
                return self.describe_stop(dbg.paused)
            if dbg.ended is not None:
                raise CommandError("no program is running: it has finished. start_debugger runs the test again")
            return {"state": "running", "text": "The program is running (not stopped).\n" + self.thread_stacks()}
        if cmd == "locals":
            frame, note = self.focus_frame()
            return {"state": self.state(), "text": note + format_locals(dict(frame.f_locals))}
        if cmd in ("print", "eval"):
            frame, note = self.focus_frame()
            return {"state": self.state(), "text": note + self.evaluate(frame, str(args["expression"]), statements=cmd == "eval")}
        if cmd == "add_breakpoint":
            return {"state": self.state(), "text": self.add_breakpoint(str(args["file"]), int(args["line"]), args.get("condition"))}
        if cmd == "remove_breakpoint":
            path = resolve_project_file(str(args["file"]))
            line = int(args["line"])
            if not dbg.get_breaks(dbg.canonic(path), line):
                raise CommandError(f"no breakpoint at {rel(path)}:{line}. {self.list_text()}")
            dbg.clear_break(dbg.canonic(path), line)
            return {"state": self.state(), "text": f"Removed breakpoint {rel(path)}:{line}. {self.list_text()}"}
        if cmd == "list_breakpoints":
            return {"state": self.state(), "text": self.list_text()}
        if cmd == "stop":
            return {"state": "stopped", "text": "Debugger stopped; the program was killed."}
        raise CommandError(f"unknown bridge command {cmd!r}")

    def state(self) -> str:
        if self.dbg.paused is not None:
            return "paused"
        return "ended" if self.dbg.ended is not None else "running"

    def list_text(self) -> str:
        items = []
        for path, lines in sorted(self.dbg.get_all_breaks().items()):
            for line in sorted(set(lines)):
                bps = self.dbg.get_breaks(path, line)
                cond = next((b.cond for b in bps if b.cond), None)
                hits = "hit" if (path, line) in self.dbg.hit else "not hit yet"
                items.append(f"{rel(path)}:{line}" + (f" if {cond}" if cond else "") + f" ({hits})")
        return "Breakpoints: " + (", ".join(items) if items else "none")

    def add_breakpoint(self, file: str, line: int, condition) -> str:
        dbg = self.dbg
        path = resolve_project_file(file)
        try:
            table = dbg.table(path)
        except SyntaxError as e:
            raise CommandError(f"{rel(path)} does not compile (line {e.lineno}: {e.msg}); fix it before setting breakpoints")
        n_lines = len(linecache.getlines(path)) if linecache.checkcache(path) is None else 0
        if line < 1 or line > max(n_lines, max(table.executable, default=0)):
            raise CommandError(f"{rel(path)} has {n_lines} lines; line {line} does not exist")
        if line not in table.executable:
            text = linecache.getline(path, line).strip()
            kind = "a blank line" if not text else ("a comment" if text.startswith("#") else "a line with no code to stop on (docstring, continuation or closing bracket)")
            offers = ", ".join(f"{n}: {linecache.getline(path, n).strip()[:60]}" for n in nearest(table, line))
            raise CommandError(f"{rel(path)}:{line} is {kind}; nothing executes there. Nearest executable lines: {offers}")
        cond = None
        if condition is not None and str(condition).strip():
            cond = str(condition)
            try:
                compile(cond, "<condition>", "eval")
            except SyntaxError as e:
                raise CommandError(f"condition {brepr(cond)} is not a valid Python expression: {e.msg}")
            except (ValueError, RecursionError, MemoryError, OverflowError) as e:
                raise CommandError(f"condition {brepr(cond)} does not compile: {safe_str(e, 200)}")
        canonical = dbg.canonic(path)
        existing = dbg.get_breaks(canonical, line)
        if existing:
            for bp in existing:
                bp.cond = cond
            verb = "Updated"
        else:
            err = dbg.set_break(canonical, line, cond=cond)
            if err:
                raise CommandError(err)
            verb = "Set"
        where = table.function_of.get(line, "<module>")
        msg = f"{verb} breakpoint at {rel(path)}:{line} in {where}" + (f" if {cond}" if cond else "") + "."
        if line in table.module_only:
            msg += (" Note: this line is module or class level code; it runs once, when the module is imported "
                    "(usually before the test starts), so it will probably not be hit.")
        return msg + "\n" + source_window(path, line, 1)

    def evaluate(self, frame: types.FrameType, expression: str, statements: bool) -> str:
        expression = expression.strip()
        if not expression:
            raise CommandError("empty expression")
        shown_expr = brepr(expression)
        try:
            code = compile(expression, "<expression>", "eval")
            is_expr = True
        except SyntaxError as e:
            if not statements:
                raise CommandError(f"SyntaxError in {shown_expr}: {e.msg} (column {e.offset}). print_variable takes an "
                                   "expression; run_expression also runs statements")
            try:
                code = compile(expression, "<expression>", "exec")
                is_expr = False
            except SyntaxError as e2:
                raise CommandError(f"SyntaxError in {shown_expr}: {e2.msg} (column {e2.offset})")
            except (ValueError, RecursionError, MemoryError, OverflowError) as e2:
                raise CommandError(f"{shown_expr} does not compile: {safe_str(e2, 200)}")
        except (ValueError, RecursionError, MemoryError, OverflowError) as e:  # NUL, invalid Unicode, too deep
            raise CommandError(f"{shown_expr} does not compile: {safe_str(e, 200)}")
        local_ns = frame.f_locals
        try:
            if is_expr:
                value = eval(code, frame.f_globals, local_ns)
            else:
                exec(code, frame.f_globals, local_ns)
                return "Executed."
        except BaseException as e:  # noqa: BLE001 - SystemExit, KeyboardInterrupt: the program's, not the bridge's end
            tail = ""
            if type(e) is NameError:
                names = [n for n in local_ns if isinstance(n, str) and not n.startswith("__") and not n.startswith("@")]
                tail = f" Locals here: {', '.join(names[:20]) or '(none)'}"
            raise CommandError(f"{safe_str(e)}.{tail}")
        return f"{expression} = {brepr(value, PRINT_LIMITS if not statements else DEFAULT)}"

    # ----- the reader thread -----
    def serve(self, infile) -> None:
        self.dbg.reader_ident = threading.get_ident()
        for raw in infile:
            if not raw.strip():
                continue
            rid = None
            try:
                req = json.loads(raw)
                rid = req.get("id")
                reply = self.handle(str(req["cmd"]), dict(req.get("args") or {}))
                self.send({"id": rid, "ok": True, **reply})
                if req["cmd"] == "stop":
                    os._exit(0)
            except CommandError as e:
                self.send({"id": rid, "ok": False, "error": str(e), "state": self.state()})
            except BaseException as e:  # noqa: BLE001 - a bug in the bridge: the harness treats it as infrastructure
                self.send({"id": rid, "ok": False, "error": f"bridge error: {safe_str(e, 500)}", "internal": True,
                           "trace": traceback.format_exc()[-2000:], "state": self.state()})
        os._exit(0)  # the harness closed the channel


class EntryPlugin:
    """pytest plugin (an object): starts tracing at the first test and stops before its body; records outcomes."""

    def __init__(self, dbg: BridgeDebugger) -> None:
        self.dbg = dbg
        self.started = False
        self.entered = False
        self.outcomes: dict[str, str] = {}
        self.messages: dict[str, str] = {}

    def pytest_runtest_setup(self, item) -> None:
        # Collection (imports) runs untraced: tracing every call of pytest's start-up would double its cost.
        if not self.started:
            self.started = True
            self.dbg.reset()
            threading.settrace(self.dbg.trace_dispatch)
            sys.settrace(self.dbg.trace_dispatch)
            self.dbg.botframe = sys._getframe()

    def pytest_runtest_call(self, item) -> None:
        """Mark the first test's own code as the place to stop. ``pytest_runtest_call`` runs for every kind of item
        (``pytest_pyfunc_call`` does not for ``unittest.TestCase`` methods, which pytest runs through unittest), after
        setup, so ``item.obj`` is the method bound to its TestCase instance (setUp has run, untraced stops)."""
        if self.entered:
            return
        self.entered = True
        try:
            fn = inspect.unwrap(item.obj)
            self.dbg.entry_code = getattr(fn, "__func__", fn).__code__
        except (AttributeError, ValueError, TypeError):  # an item without Python code (a doctest, a plugin's item)
            self.dbg.entry_code = None

    def pytest_runtest_logreport(self, report) -> None:
        if report.when == "call" or report.failed:
            outcome = report.outcome if report.when == "call" else "error"
            if self.outcomes.get(report.nodeid) in ("failed", "error"):
                return
            self.outcomes[report.nodeid] = outcome
            crash = getattr(report.longrepr, "reprcrash", None)
            if crash is not None:
                self.messages[report.nodeid] = crash.message[:300]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--test", help="pytest node id or test file, relative to the workspace")
    ap.add_argument("--prewarm", action="store_true", help="import pytest and its plugins now; start names the test")
    ap.add_argument("--in-fd", type=int, default=3)
    ap.add_argument("--out-fd", type=int, default=4)
    opts = ap.parse_args(argv)
    if (opts.test is None) == (not opts.prewarm):
        ap.error("give exactly one of --test and --prewarm")
    for fd in (opts.in_fd, opts.out_fd):
        os.set_inheritable(fd, False)  # the program's own subprocesses must not inherit the channel
    infile = os.fdopen(opts.in_fd, "r", encoding="utf-8")
    out = os.fdopen(opts.out_fd, "w", encoding="utf-8")
    dbg = BridgeDebugger()
    bridge = Bridge(dbg, out, test=opts.test)
    reader = threading.Thread(target=bridge.serve, args=(infile,), name="debugrl-bridge", daemon=True)
    reader.start()
    bridge.send({"event": "ready", "pid": os.getpid()})
    if opts.prewarm:
        bridge.warm = prewarm(WORKSPACE)
        bridge.warmed.set()
        bridge.send({"event": "warm", "ok": bridge.warm.error is None})
    bridge.go.wait()
    assert bridge.test is not None  # set by --test or by start
    # The bridge runs with ``python -P``: nothing of the workspace was on sys.path while it imported its own modules
    # (a workspace json.py or threading.py, or a package named debugrl_native, cannot replace them). The program under
    # test gets the workspace first, as ``python -m pytest`` in the workspace would give it.
    sys.path.insert(0, WORKSPACE)

    plugin = EntryPlugin(dbg)
    try:
        import pytest  # imported late: `ready` should not wait for it (a pre-warmed bridge has it already)

        # First among the pytest_runtest_call implementations: the entry must be known before the runner's own
        # implementation calls item.runtest().
        EntryPlugin.pytest_runtest_call = pytest.hookimpl(tryfirst=True)(EntryPlugin.pytest_runtest_call)

        status = int(pytest.main([bridge.test, "-s", "-q", "--tb=short", "--color=no", "-p", "no:cacheprovider"], plugins=[plugin]))
        error = None
    except BaseException as e:  # noqa: BLE001 - SystemExit from the program, a crash in pytest, a shadowed pytest
        status, error = -1, safe_str(e, 1000)
    sys.settrace(None)
    threading.settrace(None)
    dbg.step_thread = None
    ended = Ended(status, plugin.outcomes, plugin.messages, error)
    dbg.ended = ended
    dbg.events.put(ended)
    threading.Event().wait()  # keep serving inspection of the finished run until the harness stops us
    return 0


if __name__ == "__main__":
    sys.exit(main())
