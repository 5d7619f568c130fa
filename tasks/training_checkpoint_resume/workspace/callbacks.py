"""Things the training loop calls after every step: a loss log and early stopping."""
import json
import math
from pathlib import Path


class StopTraining(Exception):
    pass


class LossLog:
    """One JSON line per step, appended, so a resumed run continues the same file."""

    def __init__(self, path):
        self.path = Path(path)

    def on_step(self, step, loss, params):
        with self.path.open("a") as fh:
            fh.write(json.dumps({"step": step, "loss": loss}) + "\n")

    def read(self):
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text().splitlines() if line.strip()]


class EarlyStopping:
    """Stop once the loss has not improved by `min_delta` for `patience` steps; a NaN loss stops at once."""

    def __init__(self, patience=5, min_delta=1e-6):
        self.patience = patience
        self.min_delta = min_delta
        self.best = math.inf
        self.stale = 0

    def on_step(self, step, loss, params):
        if math.isnan(loss):
            raise StopTraining(f"loss is NaN at step {step}")
        if loss < self.best - self.min_delta:
            self.best, self.stale = loss, 0
        else:
            self.stale += 1
            if self.stale >= self.patience:
                raise StopTraining(f"no improvement for {self.patience} steps (best {self.best:.6g})")
