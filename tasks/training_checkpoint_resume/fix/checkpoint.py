"""Checkpoints: tensors go to ``state.json``; scalar hyper-parameters to ``run.manifest``, which people read and diff.

The manifest is one ``key=value`` line per scalar, so operators can see at a glance where a run is.
"""
import json
from pathlib import Path

from sgd import MomentumSGD

SCALARS = ("lr", "momentum", "decay", "step_count")


def save_checkpoint(directory: Path, params: list, opt: MomentumSGD) -> None:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "state.json").write_text(json.dumps({"params": params, "velocity": opt.velocity}))
    # repr() is the shortest text that reads back as the same float; a rounded format would change the run.
    lines = [f"{name}={getattr(opt, name)!r}" for name in SCALARS]
    (directory / "run.manifest").write_text("\n".join(lines) + "\n")


def load_checkpoint(directory: Path):
    directory = Path(directory)
    state = json.loads((directory / "state.json").read_text())
    scalars = {}
    for line in (directory / "run.manifest").read_text().splitlines():
        name, _, value = line.partition("=")
        scalars[name] = int(value) if name == "step_count" else float(value)
    opt = MomentumSGD(velocity=state["velocity"], **scalars)
    return state["params"], opt
