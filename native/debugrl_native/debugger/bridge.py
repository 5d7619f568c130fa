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
import inspect
import json
import linecache
import os
import queue
import sys
import threading
import traceback
import types

from .formatting import (
    describe_ended,
    describe_stop,
    frame_label,
    list_text,
    project_stack,
    python_files,
    shown,
    source_window,
    thread_stacks,
)
from .lines import nearest
from .paths import WORKSPACE, rel
from .prewarm import Warmed, prewarm
from .reprs import DEFAULT, ReprLimits, brepr, format_locals, safe_str
from .tracer import BridgeDebugger, CommandError, Ended

INTERRUPT_GRACE_S = 0.3  # how long a busy thread gets to reach its next project line after an interrupt
PRINT_LIMITS = ReprLimits(depth=4, items=20, string=1000, attrs=16)  # print_variable asks for one value: show more


def resolve_project_file(file: str) -> str:
    try:
        path = os.path.realpath(file if os.path.isabs(file) else os.path.join(WORKSPACE, file))
        is_file = os.path.isfile(path)
    except (OSError, ValueError) as e:  # a name too long, a NUL, text the file system cannot encode
        raise CommandError(f"{shown(file)} is not a usable path: {safe_str(e, 120)}") from None
    if not path.startswith(WORKSPACE + os.sep):
        raise CommandError(f"{shown(file)} is outside the workspace ({WORKSPACE}); breakpoints can only go in project files")
    if not is_file:
        py, more = python_files()
        listing = ", ".join(py) + (f" … {more} more" if more else "")
        raise CommandError(f"no such file: {shown(file)}. Python files in the workspace: {listing or '(none)'}")
    if not path.endswith(".py"):
        raise CommandError(f"{shown(file)} is not a Python file")
    return path


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
    def focus_frame(self) -> tuple[types.FrameType, str]:
        """The frame inspection commands use: the paused frame, or while running the innermost project frame of the
        main thread (else of the first thread that has one)."""
        if self.dbg.paused is not None:
            return self.dbg.paused.frame, ""
        if self.dbg.ended is not None:
            raise CommandError("the program has finished; start_debugger runs the test again")
        frames = sys._current_frames()
        main = threading.main_thread().ident
        assert main is not None  # set once a thread has started, and the main thread has
        order = [main] + [i for i in frames if i not in (main, self.dbg.reader_ident)]
        names = {t.ident: t.name for t in threading.enumerate()}
        for ident in order:
            stack = project_stack(self.dbg, frames.get(ident))
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
                    f"{thread_stacks(self.dbg)}\nThe session is live: continue_execution waits again, where_am_i shows the "
                    f"threads, examine_locals and print_variable read the main thread's innermost project frame, "
                    f"stop_debugger ends the program.",
                }
        if isinstance(event, Ended):
            return describe_ended(self.dbg, event)
        return describe_stop(self.dbg, event)

    # ----- commands: one method per command, registered in COMMANDS with its argument model -----
    def handle(self, cmd: str, args: dict) -> dict:
        if not COMMANDS:
            COMMANDS.update(_registry())
        entry = COMMANDS.get(cmd)
        if entry is None:
            raise ProtocolError(f"unknown bridge command {cmd!r}")
        model, run = entry
        try:
            parsed = model.model_validate(args)
        except Exception as e:  # a pydantic ValidationError: the harness sent a malformed request
            raise ProtocolError(f"{cmd}: {safe_str(e, 500)}") from None
        return run(self, parsed)

    def cmd_start(self, a) -> dict:
        if self.test is None:
            if a.test is None:
                raise CommandError("start: this bridge was pre-warmed and needs the test to run")
            # Waiting for the pre-warm costs nothing extra: a cold bridge would do the same imports now.
            if not self.warmed.wait(a.wait) or self.warm is None:
                return {"state": "stale", "text": f"the pre-warm did not finish within {a.wait:g} s"}
            stale = self.warm.stale_reason(WORKSPACE)
            if stale:
                return {"state": "stale", "text": stale}
            self.test = a.test
        elif a.test is not None and a.test != self.test:
            raise CommandError(f"start: this bridge runs {self.test}, not {a.test}")
        self.go.set()
        return self.wait_event(a.wait)

    def resume(self, cmd: str, wait: float) -> dict:
        dbg = self.dbg
        if dbg.paused is None and dbg.ended is not None:
            raise CommandError("no program is running: it has finished. start_debugger runs the test again")
        if dbg.paused is None:
            if cmd != "continue":
                raise CommandError(f"cannot {cmd.replace('_', ' ')}: the program is running, not stopped at a line. "
                                   "continue_execution waits for it again; where_am_i shows its threads; stop_debugger ends it")
            return self.wait_event(wait)
        dbg.resume_as(cmd)
        return self.wait_event(wait)

    def cmd_where(self, _a) -> dict:
        dbg = self.dbg
        if dbg.paused is not None:
            return describe_stop(dbg, dbg.paused)
        if dbg.ended is not None:
            raise CommandError("no program is running: it has finished. start_debugger runs the test again")
        return {"state": "running", "text": "The program is running (not stopped).\n" + thread_stacks(dbg)}

    def cmd_locals(self, _a) -> dict:
        frame, note = self.focus_frame()
        return {"state": self.state(), "text": note + format_locals(dict(frame.f_locals))}

    def inspect_expr(self, a, statements: bool) -> dict:
        frame, note = self.focus_frame()
        return {"state": self.state(), "text": note + self.evaluate(frame, a.expression, statements=statements)}

    def cmd_add_breakpoint(self, a) -> dict:
        return {"state": self.state(), "text": self.add_breakpoint(a.file, a.line, a.condition)}

    def cmd_remove_breakpoint(self, a) -> dict:
        dbg = self.dbg
        path = resolve_project_file(a.file)
        if not dbg.get_breaks(dbg.canonic(path), a.line):
            raise CommandError(f"no breakpoint at {rel(path)}:{a.line}. {list_text(dbg)}")
        dbg.clear_break(dbg.canonic(path), a.line)
        return {"state": self.state(), "text": f"Removed breakpoint {rel(path)}:{a.line}. {list_text(dbg)}"}

    def cmd_list_breakpoints(self, _a) -> dict:
        return {"state": self.state(), "text": list_text(self.dbg)}

    def cmd_stop(self, _a) -> dict:
        return {"state": "stopped", "text": "Debugger stopped; the program was killed."}

    def state(self) -> str:
        if self.dbg.paused is not None:
            return "paused"
        return "ended" if self.dbg.ended is not None else "running"

    def add_breakpoint(self, file: str, line: int, condition) -> str:
        dbg = self.dbg
        path = resolve_project_file(file)
        try:
            table = dbg.table(path)
        except SyntaxError as e:
            raise CommandError(f"{rel(path)} does not compile (line {e.lineno}: {e.msg}); fix it before setting breakpoints") from None
        linecache.checkcache(path)
        n_lines = len(linecache.getlines(path))
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
                raise CommandError(f"condition {brepr(cond)} is not a valid Python expression: {e.msg}") from None
            except (ValueError, RecursionError, MemoryError, OverflowError) as e:
                raise CommandError(f"condition {brepr(cond)} does not compile: {safe_str(e, 200)}") from None
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
                                   "expression; run_expression also runs statements") from None
            try:
                code = compile(expression, "<expression>", "exec")
                is_expr = False
            except SyntaxError as e2:
                raise CommandError(f"SyntaxError in {shown_expr}: {e2.msg} (column {e2.offset})") from None
            except (ValueError, RecursionError, MemoryError, OverflowError) as e2:
                raise CommandError(f"{shown_expr} does not compile: {safe_str(e2, 200)}") from None
        except (ValueError, RecursionError, MemoryError, OverflowError) as e:  # NUL, invalid Unicode, too deep
            raise CommandError(f"{shown_expr} does not compile: {safe_str(e, 200)}") from None
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
            raise CommandError(f"{safe_str(e)}.{tail}") from None
        return f"{expression} = {brepr(value, PRINT_LIMITS if not statements else DEFAULT)}"

    # ----- the reader thread -----
    def serve(self, infile) -> None:
        self.dbg.reader_ident = threading.get_ident()
        for raw in infile:
            if not raw.strip():
                continue
            rid = None
            try:
                from . import protocol

                try:
                    # json.loads, not pydantic's JSON parser: that one refuses a lone surrogate, which the harness
                    # can send inside an expression (an agent's mistake, answered as one).
                    req = protocol.Request.model_validate(json.loads(raw))
                except Exception as e:  # a pydantic ValidationError: not a request the harness can have meant
                    raise ProtocolError(f"malformed request: {safe_str(e, 500)}") from None
                rid = req.id
                reply = protocol.Reply.model_validate({"id": rid, "ok": True, **self.handle(req.cmd, req.args)})
                self.send(reply.model_dump(exclude_none=True))
                if req.cmd == "stop":
                    os._exit(0)
            except CommandError as e:
                self.send({"id": rid, "ok": False, "error": str(e), "state": self.state()})
            except BaseException as e:  # noqa: BLE001 - a bug in the bridge: the harness treats it as infrastructure
                self.send({"id": rid, "ok": False, "error": f"bridge error: {safe_str(e, 500)}", "internal": True,
                           "trace": traceback.format_exc()[-2000:], "state": self.state()})
        os._exit(0)  # the harness closed the channel


class ProtocolError(Exception):
    """A request that does not fit the protocol: a harness bug, answered as ``internal``."""


def _registry() -> dict:
    """Command name -> (argument model, handler). Built on the first request (pydantic loads then)."""
    from . import protocol as p

    return {
        "start": (p.StartArgs, Bridge.cmd_start),
        "continue": (p.WaitArgs, lambda b, a: b.resume("continue", a.wait)),
        "step_over": (p.WaitArgs, lambda b, a: b.resume("step_over", a.wait)),
        "step_into": (p.WaitArgs, lambda b, a: b.resume("step_into", a.wait)),
        "step_out": (p.WaitArgs, lambda b, a: b.resume("step_out", a.wait)),
        "where": (p.NoArgs, Bridge.cmd_where),
        "locals": (p.NoArgs, Bridge.cmd_locals),
        "print": (p.ExpressionArgs, lambda b, a: b.inspect_expr(a, statements=False)),
        "eval": (p.ExpressionArgs, lambda b, a: b.inspect_expr(a, statements=True)),
        "add_breakpoint": (p.BreakpointArgs, Bridge.cmd_add_breakpoint),
        "remove_breakpoint": (p.LocationArgs, Bridge.cmd_remove_breakpoint),
        "list_breakpoints": (p.NoArgs, Bridge.cmd_list_breakpoints),
        "stop": (p.NoArgs, Bridge.cmd_stop),
    }


COMMANDS: dict = {}  # filled by _registry() on the first request


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
        from . import protocol  # noqa: F401 - pydantic loads now, while the model thinks, not at the first request
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
        EntryPlugin.pytest_runtest_call = pytest.hookimpl(tryfirst=True)(  # type: ignore[method-assign]  # marks it
            EntryPlugin.pytest_runtest_call)

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
