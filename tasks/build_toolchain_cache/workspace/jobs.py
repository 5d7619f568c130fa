"""CI jobs and build matrices, parsed from a pipeline definition."""
import itertools
from dataclasses import dataclass, field


class PipelineError(ValueError):
    pass


@dataclass
class Job:
    name: str
    image: str
    steps: list
    env: dict = field(default_factory=dict)

    def with_env(self, **extra):
        return Job(self.name, self.image, list(self.steps), {**self.env, **extra})


def expand_matrix(name, image, steps, matrix, env=None):
    """One job per combination of the matrix's axes, named after the values: "test (3.11, arm64)"."""
    axes = sorted(matrix)
    jobs = []
    for combo in itertools.product(*(matrix[a] for a in axes)):
        job_env = dict(env or {})
        job_env.update(zip(axes, combo))
        jobs.append(Job(f"{name} ({', '.join(str(v) for v in combo)})", image, list(steps), job_env))
    return jobs


def parse_pipeline(doc):
    if not isinstance(doc, dict) or not isinstance(doc.get("jobs"), dict):
        raise PipelineError("a pipeline needs a 'jobs' mapping")
    jobs = []
    for name, spec in doc["jobs"].items():
        if "image" not in spec:
            raise PipelineError(f"job {name!r} has no image")
        steps = spec.get("steps") or []
        if not steps or not all(isinstance(s, str) and s.strip() for s in steps):
            raise PipelineError(f"job {name!r} needs at least one non-empty step")
        env = {str(k): str(v) for k, v in (spec.get("env") or {}).items()}
        if "matrix" in spec:
            jobs.extend(expand_matrix(name, spec["image"], steps, {k: [str(v) for v in vs] for k, vs in spec["matrix"].items()}, env))
        else:
            jobs.append(Job(name, spec["image"], list(steps), env))
    return jobs
