"""Numbered checkpoints under one run directory (``step-000010/``...), the newest few kept, plus a LATEST pointer."""
import shutil
from pathlib import Path

from checkpoint import load_checkpoint, save_checkpoint

POINTER = "LATEST"


class NoCheckpoint(FileNotFoundError):
    pass


class CheckpointManager:
    def __init__(self, root, keep=3):
        if keep < 1:
            raise ValueError(f"keep must be at least 1, got {keep}")
        self.root = Path(root)
        self.keep = keep

    def _dir(self, step):
        return self.root / f"step-{step:06d}"

    def steps(self):
        if not self.root.exists():
            return []
        return sorted(int(p.name[5:]) for p in self.root.iterdir() if p.is_dir() and p.name.startswith("step-"))

    def save(self, params, opt):
        target = self._dir(opt.step_count)
        save_checkpoint(target, params, opt)
        (self.root / POINTER).write_text(target.name + "\n")
        for step in self.steps()[:-self.keep]:
            shutil.rmtree(self._dir(step))
        return target

    def latest_dir(self):
        pointer = self.root / POINTER
        if not pointer.exists():
            raise NoCheckpoint(f"no checkpoint under {self.root}")
        return self.root / pointer.read_text().strip()

    def restore(self):
        return load_checkpoint(self.latest_dir())
