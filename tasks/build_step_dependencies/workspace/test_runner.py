import threading
import time

import pytest

from runner import BuildRunner
from steps import BuildStep


def wait_until(predicate, timeout=2.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        threading.Event().wait(0.005)


def test_independent_steps_all_build():
    done = []
    steps = [BuildStep(n, lambda n=n: done.append(n)) for n in ("lint", "docs", "assets")]
    outcome = BuildRunner(steps, step_timeout=1).run(timeout=3)
    assert outcome == {"lint": "built", "docs": "built", "assets": "built"}
    assert sorted(done) == ["assets", "docs", "lint"]


def test_graph_errors_are_reported():
    with pytest.raises(ValueError, match="unknown step"):
        BuildRunner([BuildStep("test", print, deps=("compile",))])
    with pytest.raises(ValueError, match="cycle"):
        BuildRunner([BuildStep("a", print, deps=("b",)), BuildStep("b", print, deps=("a",))])


def test_dependent_runs_after_its_dependency():
    order = []
    holder = {}

    def compile_():
        # let the test step start waiting first, as it does on a loaded machine
        wait_until(lambda: holder["runner"].signals["compile"].waiting == 1)
        order.append("compile")

    steps = [BuildStep("compile", compile_), BuildStep("test", lambda: order.append("test"), deps=("compile",))]
    runner = holder["runner"] = BuildRunner(steps, step_timeout=2)
    outcome = runner.run(timeout=3)
    assert order == ["compile", "test"]
    assert outcome["test"] == "built"


def test_failed_dependency_skips_dependents():
    holder = {}

    def compile_():
        wait_until(lambda: holder["runner"].signals["compile"].waiting == 1)
        raise RuntimeError("syntax error in main.c")

    steps = [BuildStep("compile", compile_), BuildStep("package", print, deps=("compile",))]
    runner = holder["runner"] = BuildRunner(steps, step_timeout=2)
    outcome = runner.run(timeout=3)
    assert outcome == {"compile": "failed: syntax error in main.c", "package": "skipped: compile failed"}


def test_step_after_cached_dependency_builds():
    order = []
    steps = [
        BuildStep("compile", lambda: order.append("compile")),
        BuildStep("test", lambda: order.append("test"), deps=("compile",)),
    ]
    outcome = BuildRunner(steps, cached={"compile"}, step_timeout=1).run(timeout=3)
    assert outcome["compile"] == "cached"
    assert outcome["test"] == "built", f"test step: {outcome['test']}"
    assert order == ["test"]
