"""Runs build steps in parallel, each as soon as its dependencies are done."""
import threading

from completion import CompletionSignal, DependencyTimeout
from steps import check_graph


class BuildRunner:
    def __init__(self, steps, cached=(), step_timeout=30.0):
        self._steps = check_graph(steps)
        self._cached = set(cached)
        self._timeout = step_timeout
        self.signals = {name: CompletionSignal(name) for name in self._steps}
        self.outcome = {}
        self._lock = threading.Lock()

    def _record(self, name, outcome):
        with self._lock:
            self.outcome[name] = outcome

    def _run_step(self, step):
        try:
            for dep in step.deps:
                if not self.signals[dep].wait(self._timeout):
                    self._record(step.name, f"skipped: {dep} failed")
                    self.signals[step.name].finish(False)
                    return
        except DependencyTimeout as exc:
            self._record(step.name, f"timed out: {exc}")
            self.signals[step.name].finish(False)
            return
        try:
            step.action()
        except Exception as exc:
            self._record(step.name, f"failed: {exc}")
            self.signals[step.name].finish(False)
            return
        self._record(step.name, "built")
        self.signals[step.name].finish(True)

    def run(self, timeout=None):
        """Build everything; returns {step name: outcome}."""
        threads = []
        for name, step in self._steps.items():
            if name in self._cached:
                # Restored from the build cache: nothing to run, dependents may go ahead.
                self._record(name, "cached")
                self.signals[name].finish(True)
                continue
            t = threading.Thread(target=self._run_step, args=(step,), name=f"step-{name}", daemon=True)
            threads.append(t)
            t.start()
        for t in threads:
            t.join(timeout)
        return dict(self.outcome)
