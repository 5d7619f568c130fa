"""Runs a pipeline's jobs: resolves each job's toolchain, renders its steps, names its artifacts."""
import string
from dataclasses import dataclass, field

from toolchains import ToolchainResolver


class StepError(ValueError):
    pass


@dataclass
class JobResult:
    job: str
    commands: list
    artifact: str
    toolchain: object = field(repr=False, default=None)


def render_step(step, toolchain, env):
    names = {"python": toolchain.python_bin, "node": toolchain.node_bin, **env}
    try:
        return string.Template(step).substitute(names)
    except KeyError as exc:
        raise StepError(f"step {step!r} uses ${exc.args[0]}, which is not set") from None


def artifact_name(job, toolchain):
    slug = "".join(c if c.isalnum() else "-" for c in job.name.split(" (")[0]).strip("-")
    return f"{slug}-py{toolchain.python}-node{toolchain.node}-{toolchain.arch}.tar.gz"


class Runner:
    def __init__(self, installer, cache_size=16):
        self.resolver = ToolchainResolver(installer, maxsize=cache_size)
        self.results = []

    def run_job(self, job):
        toolchain = self.resolver.resolve(job)
        commands = [render_step(step, toolchain, job.env) for step in job.steps]
        result = JobResult(job.name, commands, artifact_name(job, toolchain), toolchain)
        self.results.append(result)
        return result

    def run(self, jobs):
        return [self.run_job(job) for job in jobs]

    def summary(self):
        info = self.resolver.store.info()
        return {"jobs": len(self.results), "cache_hits": info.hits, "cache_misses": info.misses}
