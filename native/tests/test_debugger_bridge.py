"""The bridge's own tests: a real bdb debugger on tiny real repositories, driven over its JSON protocol
(no sandbox: the TypeScript suites cover the sandboxed path)."""
from __future__ import annotations

import textwrap

import pytest

from debugrl_native.debugger.client import BridgeProcess
from debugrl_native.debugger.lines import line_table, nearest
from debugrl_native.debugger.reprs import brepr, format_locals

SOURCE = textwrap.dedent(
    '''\
    import threading


    def add_item(item, bucket=[]):
        """Append and return the bucket.

        A docstring continuation line.
        """
        # a comment
        bucket.append(item)
        return bucket


    def in_thread(results):
        t = threading.Thread(target=lambda: results.append(add_item("t")))
        t.start()
        t.join(timeout=5)
    '''
)

TEST = textwrap.dedent(
    '''\
    from app import add_item, in_thread


    def test_fresh_bucket():
        first = add_item(1)
        second = add_item(2)
        assert second == [2]


    def test_thread():
        results = []
        in_thread(results)
        assert results
    '''
)


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "app.py").write_text(SOURCE)
    (tmp_path / "test_app.py").write_text(TEST)
    return tmp_path


@pytest.fixture
def bridge(repo):
    opened = []

    def start(test: str) -> BridgeProcess:
        b = BridgeProcess(str(repo), test)
        opened.append(b)
        return b

    yield start
    for b in opened:
        b.close()


def test_line_table_refuses_blank_comment_and_docstring_lines():
    table = line_table(SOURCE, "app.py")
    assert 10 in table.executable and 11 in table.executable  # bucket.append / return
    for line in (2, 6, 7, 9):  # blank, blank inside the docstring, docstring continuation, comment
        assert line not in table.executable
    assert nearest(table, 9) == [10, 11]  # per-call lines first, nearest first
    assert 4 in table.module_only  # the def line runs only at import


def test_bounded_reprs_and_filtered_locals():
    assert brepr(list(range(20))) == "[0, 1, 2, 3, 4, 5, 6, 7, … 12 more items]"
    assert brepr("y" * 200).endswith("… 42 more chars")  # 202 chars with quotes, 160 kept
    assert brepr([[[[1]]]]) == "[[[<list of 1 items>]]]"
    text = format_locals({"__name__": "m", "textwrap": textwrap, "f": brepr, "x": 1})
    assert text == "x = 1\n(hidden: 1 dunder, 1 function/class, 1 module; print_variable shows any of them by name)"


def test_stop_before_body_step_and_inspect(bridge):
    b = bridge("test_app.py::test_fresh_bucket")
    r = b.call("start", wait=20)
    assert r["state"] == "paused" and r["line"] == 5 and r["reason"] == "start"
    r = b.call("add_breakpoint", file="app.py", line=10, condition="item == 2")
    assert r["ok"], r
    r = b.call("continue", wait=5)
    assert r["ok"] and r["line"] == 10 and r["text"].startswith("Stopped at breakpoint app.py:10")
    assert b.call("print", expression="bucket")["text"] == "bucket = [1]"  # the shared default, already used once
    r = b.call("step_over", wait=5)
    assert r["line"] == 11
    r = b.call("step_out", wait=5)
    assert "Returning from add_item() with value: [1, 2]" in r["text"]
    r = b.call("continue", wait=5)
    assert r["state"] == "ended"
    assert "test_app.py::test_fresh_bucket failed" in r["text"]
    assert r["never_hit"] == []


def test_refusals_are_errors_not_crashes(bridge, repo):
    b = bridge("test_app.py::test_fresh_bucket")
    b.call("start", wait=20)
    cases = {
        ("app.py", 9): "is a comment; nothing executes there. Nearest executable lines: 10: bucket.append(item), 11: return bucket",
        ("app.py", 7): "is a line with no code to stop on",
        ("gone.py", 1): "no such file: gone.py",
        ("../outside.py", 1): "is outside the workspace",
    }
    for (file, line), expected in cases.items():
        r = b.call("add_breakpoint", file=file, line=line)
        assert not r["ok"] and expected in r["error"], r
    r = b.call("print", expression="undefined_name")
    assert not r["ok"] and r["error"].startswith("NameError: name 'undefined_name' is not defined")
    r = b.call("eval", expression="x = (")
    assert not r["ok"] and r["error"].startswith("SyntaxError")
    r = b.call("continue", wait=5)
    assert r["state"] == "ended"
    r = b.call("step_over", wait=1)
    assert not r["ok"] and "no program is running" in r["error"]


def test_breakpoint_in_a_non_main_thread_and_never_hit_report(bridge):
    b = bridge("test_app.py::test_thread")
    b.call("start", wait=20)
    assert b.call("add_breakpoint", file="app.py", line=10)["ok"]
    assert b.call("add_breakpoint", file="app.py", line=11, condition="False")["ok"]
    r = b.call("continue", wait=5)
    assert r["line"] == 10 and "[thread Thread-" in r["text"]
    r = b.call("continue", wait=5)
    assert r["state"] == "ended" and r["never_hit"] == ["app.py:11"]
    assert "Breakpoints never hit: app.py:11" in r["text"]


def test_hang_reports_threads_and_stays_usable(bridge, repo):
    (repo / "test_hang.py").write_text(
        "import threading\n\n\ndef test_hang():\n    lock = threading.Lock()\n    lock.acquire()\n    lock.acquire()\n"
    )
    b = bridge("test_hang.py::test_hang")
    b.call("start", wait=20)
    r = b.call("continue", wait=1)
    assert r["state"] == "running" and r["text"].startswith("Still running after 1 s")
    assert "test_hang.py:7 in test_hang: lock.acquire()" in r["text"]
    r = b.call("print", expression="lock.locked()")
    assert r["ok"] and r["text"].endswith("lock.locked() = True")
    r = b.call("continue", wait=1)
    assert r["state"] == "running"
    assert b.call("stop")["state"] == "stopped"
    assert b.proc.wait(5) == 0


def test_busy_loop_is_interrupted_at_a_project_line(bridge, repo):
    (repo / "test_spin.py").write_text("def test_spin():\n    n = 0\n    while True:\n        n += 1\n")
    b = bridge("test_spin.py::test_spin")
    b.call("start", wait=20)
    r = b.call("continue", wait=1)
    assert r["state"] == "paused" and r["reason"] == "interrupted" and r["line"] in (3, 4)
    assert int(b.call("print", expression="n")["text"].split("= ")[1]) > 0


def test_prewarmed_bridge_runs_the_test_named_at_start_on_code_edited_after_warming(repo):
    b = BridgeProcess(str(repo), None)
    try:
        assert b.wait_event("warm")["ok"] is True
        # The fix lands after pytest is imported: the warm process must not have imported app.py yet.
        (repo / "app.py").write_text(SOURCE.replace("bucket=[]):", "bucket=None):\n    bucket = [] if bucket is None else bucket"))
        r = b.call("start", wait=20, test="test_app.py::test_fresh_bucket")
        assert r["state"] == "paused" and r["reason"] == "start" and r["line"] == 5, r
        r = b.call("continue", wait=20)
        assert r["state"] == "ended" and r["outcomes"] == {"test_app.py::test_fresh_bucket": "passed"}, r
        b.proc.kill()
        out = b.proc.stdout.read().decode() + b.proc.stderr.read().decode()
    finally:
        b.close()
    assert "1 passed" in out and "warning" not in out  # plugins were imported the way pytest.main imports them


def test_prewarmed_bridge_is_stale_when_a_workspace_file_shadows_a_warmed_module(repo):
    # pluggy is imported while warming; a cold bridge would import this file instead (cwd first on sys.path).
    marker = repo / "imported.txt"
    (repo / "pluggy.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    b = BridgeProcess(str(repo), None)
    try:
        assert b.wait_event("warm")["ok"] is True
        assert not marker.exists()  # warming imported nothing from the workspace
        r = b.call("start", wait=20, test="test_app.py::test_fresh_bucket")
        assert r["ok"] and r["state"] == "stale" and "pluggy" in r["text"], r
        assert not marker.exists()
    finally:
        b.close()


def test_prewarmed_bridge_needs_a_test_and_a_cold_one_keeps_its_own(bridge, repo):
    b = BridgeProcess(str(repo), None)
    try:
        r = b.call("start", wait=20)
        assert not r["ok"] and "needs the test" in r["error"]
    finally:
        b.close()
    cold = bridge("test_app.py::test_fresh_bucket")
    r = cold.call("start", wait=20, test="test_app.py::test_thread")
    assert not r["ok"] and "runs test_app.py::test_fresh_bucket" in r["error"]


def test_hostile_expressions_and_values_are_agent_errors_not_bridge_errors(bridge):
    """SystemExit and KeyboardInterrupt in an expression, invalid Unicode, values whose protocols raise: every reply is
    a normal one (ok, or an error the model reads), never ``internal``, and the bridge keeps serving."""
    b = bridge("test_app.py::test_fresh_bucket")
    b.call("start", wait=20)
    for expression in ("raise SystemExit(3)", "raise KeyboardInterrupt", "'\ud800'", "1\x00", "[" * 100000):
        r = b.call("eval", expression=expression)
        assert not r["ok"] and not r.get("internal"), r
    b.call("eval", expression=textwrap.dedent(
        """\
        class BadClass:
            @property
            def __class__(self): raise RuntimeError("class")
        class BadAttr:
            def __getattribute__(self, n): raise RuntimeError("getattr")
        class BadItems(dict):
            def items(self): raise RuntimeError("items")
        class BadIter(list):
            def __iter__(self): raise SystemExit("iter")
        values = [BadClass(), BadAttr(), BadItems(a=1), BadIter([1])]
        """))
    for i in range(4):
        r = b.call("print", expression=f"values[{i}]")
        assert r["ok"] and not r.get("internal"), r
    assert "<repr failed: SystemExit: iter>" in b.call("print", expression="values[3]")["text"]
    r = b.call("locals")
    assert r["ok"] and "values = " in r["text"], r
    # A request the protocol refuses (a lone surrogate in a file name: the harness refuses such arguments before it
    # sends anything) is flagged internal, and the bridge keeps serving.
    r = b.call("add_breakpoint", file="\ud800.py", line=1)
    assert not r["ok"] and r.get("internal"), r
    r = b.call("add_breakpoint", file="app.py")
    assert not r["ok"] and r.get("internal") and "line" in r["error"], r
    assert b.call("print", expression="1 + 1")["text"] == "1 + 1 = 2"


def test_workspace_modules_cannot_replace_the_bridges_own(bridge, repo):
    """The bridge runs with ``python -P``: a workspace json.py, threading.py or a package named like the bridge is
    not imported by the bridge; the test still stops before its body."""
    for name in ("json", "threading", "queue", "argparse"):
        (repo / f"{name}.py").write_text(f"raise ImportError('workspace {name}')\n")
    (repo / "debugrl_native").mkdir()
    (repo / "debugrl_native" / "__init__.py").write_text("raise ImportError('workspace package')\n")
    b = bridge("test_app.py::test_fresh_bucket")
    r = b.call("start", wait=20)
    assert r["state"] == "paused" and r["line"] == 5, r
