import json

import pytest

from config import EarlyStopping, ExperimentConfig, LRSchedule, OptimizerConfig
from config_io import ConfigError, load_config, save_config
from trainer import plan_run

LOSSES = [2.0, 1.5, 1.2, 1.1, 1.12, 1.15, 1.13, 1.2, 1.3, 1.25]


def sweep_config(**overrides):
    base = dict(
        name="resnet-small",
        epochs=6,
        optimizer=OptimizerConfig(name="sgd", lr=0.4, momentum=0.9),
        schedule=LRSchedule(warmup_epochs=2, decay=0.5),
    )
    base.update(overrides)
    return ExperimentConfig(**base)


def test_warmup_then_decay():
    plan = plan_run(sweep_config(), LOSSES)
    # warm-up: 0.4*1/2, 0.4*2/2; then 0.4*0.5**k for k = 0..3
    assert plan.learning_rates == [0.2, 0.4, 0.4, 0.2, 0.1, 0.05]
    assert plan.stopped_early_at is None


def test_early_stopping_ends_the_run():
    plan = plan_run(sweep_config(epochs=10, early_stopping=EarlyStopping(patience=3)), LOSSES)
    # best loss 1.1 at epoch 3; epochs 4, 5, 6 do not beat it
    assert plan.stopped_early_at == 6


def test_saved_config_is_plain_json(tmp_path):
    save_config(sweep_config(), tmp_path / "config.json")
    doc = json.loads((tmp_path / "config.json").read_text())
    assert doc["optimizer"]["lr"] == 0.4
    assert doc["early_stopping"] is None


def test_unknown_key_is_rejected(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"name": "x", "epochz": 3}))
    with pytest.raises(ConfigError):
        load_config(tmp_path / "config.json")


def test_reloaded_config_plans_the_same_run(tmp_path):
    cfg = sweep_config()
    save_config(cfg, tmp_path / "config.json")
    reloaded = load_config(tmp_path / "config.json")
    assert plan_run(reloaded, LOSSES) == plan_run(cfg, LOSSES)


def test_reloaded_config_keeps_early_stopping(tmp_path):
    cfg = sweep_config(epochs=10, early_stopping=EarlyStopping(patience=3, min_delta=0.01))
    save_config(cfg, tmp_path / "config.json")
    reloaded = load_config(tmp_path / "config.json")
    assert plan_run(reloaded, LOSSES).stopped_early_at == plan_run(cfg, LOSSES).stopped_early_at == 6
