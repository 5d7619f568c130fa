"""Build steps and their dependency graph."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class BuildStep:
    name: str
    action: object
    deps: tuple = field(default=())


def check_graph(steps):
    """Reject unknown dependencies and cycles; return steps by name."""
    by_name = {}
    for step in steps:
        if step.name in by_name:
            raise ValueError(f"duplicate step {step.name!r}")
        by_name[step.name] = step
    for step in steps:
        for dep in step.deps:
            if dep not in by_name:
                raise ValueError(f"step {step.name!r} depends on unknown step {dep!r}")

    visiting, done = set(), set()

    def visit(name, path):
        if name in done:
            return
        if name in visiting:
            raise ValueError("dependency cycle: " + " -> ".join(path + [name]))
        visiting.add(name)
        for dep in by_name[name].deps:
            visit(dep, path + [name])
        visiting.discard(name)
        done.add(name)

    for name in by_name:
        visit(name, [])
    return by_name
