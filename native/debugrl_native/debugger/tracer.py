"""The tracer: a ``bdb.Bdb`` that stops only in project code, follows one thread when stepping, stops every thread at
breakpoints, and hands each stop to the reader thread (bridge.py) through a queue."""
from __future__ import annotations

import bdb
import os
import queue
import stat
import sys
import threading
import types
from dataclasses import dataclass, field

from .lines import LineTable, line_table
from .paths import WORKSPACE, rel
from .reprs import safe_str

MAX_SOURCE_BYTES = 4 * 1024 * 1024  # largest file a breakpoint may go in


class CommandError(Exception):
    """A mistake by the agent: becomes an ok:false reply the model reads."""


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
            self._set_stopinfo(None, None)  # type: ignore[attr-defined]  # bdb's own (private) setter; typeshed omits it
        else:
            self.step_thread = stop.thread_id
            # Frames entered while not stepping have no local trace function; give the whole paused stack one so
            # stepping out of a function stops in its caller.
            f: types.FrameType | None = frame
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
            f: types.FrameType | None = frame
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
            raise CommandError(f"{rel(path)} cannot be read: {safe_str(e, 160)}") from None
        try:
            table = line_table(source, path)
        except (ValueError, RecursionError, MemoryError) as e:  # NUL bytes, nesting too deep for the compiler
            raise CommandError(f"{rel(path)} does not compile: {safe_str(e, 160)}") from None
        mtime = st.st_mtime
        self._tables[path] = (mtime, table)
        return table
