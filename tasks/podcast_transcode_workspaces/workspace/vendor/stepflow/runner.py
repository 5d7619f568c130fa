"""The runner."""
import time
from dataclasses import dataclass, field


class JobFailed(RuntimeError):
    def __init__(self, job, step, error):
        super().__init__(f"job {job!r} failed in step {step}: {error}")
        self.job = job
        self.step = step
        self.error = error


@dataclass
class Step:
    name: str
    fn: object
    retries: int = 0


@dataclass
class RunRecord:
    job: object
    steps: list = field(default_factory=list)
    seconds: float = 0.0
    ok: bool = False


class Runner:
    def __init__(self, steps, plugins=()):
        self.steps = list(steps)
        self.plugins = list(plugins)
        self.history = []

    def _call(self, hook, *args):
        for plugin in self.plugins:
            fn = getattr(plugin, hook, None)
            if fn is not None:
                fn(*args)

    def run(self, job, context=None):
        context = {} if context is None else context
        record = RunRecord(job)
        started = time.monotonic()
        self._call("before_job", job, context)
        result = None
        for step in self.steps:
            attempts = 0
            while True:
                try:
                    result = step.fn(job, context, result)
                    record.steps.append(step.name)
                    break
                except Exception as exc:
                    attempts += 1
                    if attempts > step.retries:
                        record.seconds = time.monotonic() - started
                        self.history.append(record)
                        self._call("job_failed", job, context, exc)
                        raise JobFailed(job, step.name, exc) from exc
        record.seconds = time.monotonic() - started
        record.ok = True
        self.history.append(record)
        self._call("after_job", job, context, result)
        return result
