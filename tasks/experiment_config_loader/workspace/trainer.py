"""Dry-run of a training loop: which learning rate each epoch gets and when early stopping ends the run.

The real trainer feeds these numbers to the optimizer; the sweep planner uses the dry run to budget GPU hours.
"""
from dataclasses import dataclass, field

from config import ExperimentConfig


@dataclass
class RunPlan:
    learning_rates: list = field(default_factory=list)
    stopped_early_at: int | None = None


def plan_run(cfg: ExperimentConfig, val_losses) -> RunPlan:
    """``val_losses[i]`` is the validation loss expected after epoch ``i``."""
    plan = RunPlan()
    history = []
    for epoch in range(cfg.epochs):
        plan.learning_rates.append(round(cfg.schedule.lr_at(epoch, cfg.optimizer.lr), 6))
        history.append(val_losses[epoch])
        if cfg.early_stopping is not None and cfg.early_stopping.should_stop(history):
            plan.stopped_early_at = epoch
            break
    return plan
