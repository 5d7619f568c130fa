import pytest

from callbacks import EarlyStopping, LossLog
from checkpoint_manager import CheckpointManager, NoCheckpoint
from sgd import MomentumSGD
from train_loop import evaluate, resume, train

DATA = [(x / 10, 3.0 * x / 10 - 1.0) for x in range(-10, 11)]


def test_loss_goes_down():
    _, _, losses = train(DATA, 40)
    assert losses[-1] < losses[0] / 10


def test_learning_rate_decays_each_step():
    _, opt, _ = train(DATA, 3)
    assert opt.lr == 0.05 * 0.97 * 0.97 * 0.97
    assert opt.step_count == 3


def test_checkpoint_manifest_is_human_readable(tmp_path):
    train(DATA, 20, checkpoint_dir=tmp_path, checkpoint_every=10)
    lines = (tmp_path / "run.manifest").read_text().splitlines()
    assert "step_count=20" in lines
    assert "momentum=0.9" in lines


def test_restored_optimizer_keeps_velocity(tmp_path):
    train(DATA, 20, checkpoint_dir=tmp_path, checkpoint_every=10)
    _, opt, _ = resume(DATA, 0, tmp_path)
    assert isinstance(opt, MomentumSGD) and len(opt.velocity) == 2 and opt.step_count == 20


def test_resumed_run_is_bit_identical(tmp_path):
    full_params, full_opt, _ = train(DATA, 30)
    train(DATA, 20, checkpoint_dir=tmp_path, checkpoint_every=10)
    params, opt, _ = resume(DATA, 10, tmp_path)
    assert params == full_params, "resumed run diverged from the uninterrupted one"
    assert opt.lr == full_opt.lr


def test_manager_keeps_the_newest_checkpoints(tmp_path):
    manager = CheckpointManager(tmp_path / "run", keep=2)
    with pytest.raises(NoCheckpoint):
        manager.restore()
    train(DATA, 30, checkpoint_every=10, manager=manager)
    assert manager.steps() == [20, 30] and manager.latest_dir().name == "step-000030"
    params, opt = manager.restore()
    assert opt.step_count == 30 and len(params) == 2


def test_loss_log_and_early_stopping(tmp_path):
    log = LossLog(tmp_path / "loss.jsonl")
    params, opt, losses = train(DATA, 400, callbacks=[log, EarlyStopping(patience=3, min_delta=1e-3)])
    rows = log.read()
    assert len(rows) == len(losses) < 400 and rows[0]["step"] == 1
    assert opt.stopped.startswith("no improvement for 3 steps")
    assert evaluate(params, DATA) < losses[0] / 10
