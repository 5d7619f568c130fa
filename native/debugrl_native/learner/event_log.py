"""Every train step's metrics as TensorBoard scalars in the run's folder: `tensorboard --logdir <run dir>/tensorboard`.

Written through torch's `SummaryWriter` (the `tensorboard` package's event format), one scalar per number of
`TrainMetrics` under `train/<field>`, the bucket lists of the mismatch metrics as `train/<field>/<bucket>` (an empty
bucket, None, is left out rather than drawn as 0), at the policy version the step produced. Only rank 0 writes.
"""

from __future__ import annotations

from pathlib import Path

from .mismatch import LAG_BUCKETS, LENGTH_BUCKETS, TURN_BUCKETS
from .protocol import TrainMetrics

_LABELS = {"lag": LAG_BUCKETS, "turn": TURN_BUCKETS, "length": LENGTH_BUCKETS}


def scalars(metrics: TrainMetrics) -> dict[str, float]:
    """tag -> value for every number in the metrics (strings, such as the mode, are not scalars)."""
    out: dict[str, float] = {}
    for name, value in metrics.model_dump().items():
        if isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        if isinstance(value, list):
            labels = _LABELS[name.rsplit("_by_", 1)[1]]
            out.update({f"train/{name}/{label}": float(v) for label, v in zip(labels, value) if v is not None})
        else:
            out[f"train/{name}"] = float(value)
    return out


class EventLog:
    def __init__(self, logdir: Path):
        from torch.utils.tensorboard import SummaryWriter

        logdir.mkdir(parents=True, exist_ok=True)
        self.writer = SummaryWriter(log_dir=str(logdir))

    def write(self, step: int, metrics: TrainMetrics) -> None:
        for tag, value in scalars(metrics).items():
            self.writer.add_scalar(tag, value, step)
        self.writer.add_text("train/offpolicy_mode", metrics.offpolicy_mode, step)
        self.writer.flush()  # a run killed mid-way keeps every step it reported

    def close(self) -> None:
        self.writer.close()
