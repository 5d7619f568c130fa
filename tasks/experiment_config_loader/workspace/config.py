"""Experiment configuration for the training sweeps, as nested dataclasses."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass
class OptimizerConfig:
    name: str = "sgd"
    lr: float = 0.1
    momentum: float = 0.9


@dataclass
class LRSchedule:
    """Linear warm-up to the base rate, then multiplicative decay once per epoch."""

    warmup_epochs: int = 0
    decay: float = 1.0

    def lr_at(self, epoch: int, base_lr: float) -> float:
        if epoch < self.warmup_epochs:
            return base_lr * (epoch + 1) / self.warmup_epochs
        return base_lr * self.decay ** (epoch - self.warmup_epochs)


@dataclass
class EarlyStopping:
    """Stop when validation loss has not improved by ``min_delta`` for ``patience`` epochs."""

    patience: int = 3
    min_delta: float = 0.0

    def should_stop(self, losses) -> bool:
        if len(losses) <= self.patience:
            return False
        best_before = min(losses[: -self.patience])
        return min(losses[-self.patience:]) > best_before - self.min_delta


@dataclass
class ExperimentConfig:
    name: str
    epochs: int = 10
    optimizer: OptimizerConfig = field(default_factory=OptimizerConfig)
    schedule: LRSchedule = field(default_factory=LRSchedule)
    early_stopping: Optional[EarlyStopping] = None
