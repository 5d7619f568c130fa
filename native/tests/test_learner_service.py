"""The learner service as a real subprocess speaking JSON lines."""

import json
import subprocess
import sys

import pytest

from debugrl_native.learner.protocol import TrainBatch
from debugrl_native.learner.synthetic import synthetic_batch


@pytest.mark.slow
def test_service_trains_reports_and_refuses_bad_requests(tmp_path):
    cfg = tmp_path / "learner.json"
    cfg.write_text(json.dumps({"lora": {"rank": 4, "alpha": 8.0}, "output_dir": str(tmp_path / "out")}))
    batch = synthetic_batch(128, groups=1, seed=7)
    (tmp_path / "batch.json").write_text(batch.model_dump_json())
    bad_vocab = synthetic_batch(1000, groups=1, seed=8)  # token ids beyond the tiny model's 128
    requests = [
        {"type": "train_step", "request_id": "r1", "batch": {"kind": "inline", "batch": batch.model_dump(mode="json")}},
        {"type": "train_step", "request_id": "r2", "batch": {"kind": "file", "path": str(tmp_path / "batch.json")}},
        {"type": "train_step", "request_id": "r3", "batch": {"kind": "inline",
                                                             "batch": bad_vocab.model_dump(mode="json")}},
        {"type": "train_step", "request_id": "r4", "batch": {"kind": "inline", "batch": {"groups": []}}},
        {"type": "status", "request_id": "r5"},
        {"type": "shutdown", "request_id": "r6"},
    ]
    proc = subprocess.run([sys.executable, "-m", "debugrl_native.learner.service", "--config", str(cfg)],
                          input="".join(json.dumps(r) + "\n" for r in requests), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert lines[0]["type"] == "ready" and lines[0]["policy_version"] == 0
    r1, r2, r3, r4, r5, r6 = lines[1:]
    assert r1["type"] == "train_step_result" and r1["policy_version"] == 1
    m = r1["metrics"]
    for key in ("loss_policy", "loss_kl", "loss_bc", "clip_frac_low", "clip_frac_high", "ratio_mean", "kl_mean",
                "stale_trajectories_dropped", "tokens_per_s", "peak_memory_bytes"):
        assert key in m
    assert m["trajectories_trained"] == 4
    assert r2["policy_version"] == 2 and r2["adapter_path"].endswith("v2")
    assert (r3["type"], r3["error_kind"], r3["request_id"]) == ("error", "invalid_request", "r3")
    assert "vocabulary" in r3["message"]
    assert (r4["type"], r4["error_kind"]) == ("error", "invalid_request")
    assert r5["type"] == "status" and r5["policy_version"] == 2
    assert r6 == {"type": "shutdown", "request_id": "r6"}
    TrainBatch.model_validate_json((tmp_path / "batch.json").read_text())  # the file form is the same schema


@pytest.mark.slow
def test_service_dies_with_the_worker_that_started_it(tmp_path):
    """A SIGKILLed worker must not leave its service training on (see service._die_with_parent). The parent here is a
    stand-in for the worker: it starts the service, prints its pid, and sleeps until killed. The service's stdin is this
    test's pipe, which stays open after the parent dies, so a closed stdin cannot be what stops it."""
    import os
    import signal
    import time

    cfg = tmp_path / "learner.json"
    cfg.write_text(json.dumps({"lora": {"rank": 2, "alpha": 4.0}, "output_dir": str(tmp_path / "out")}))
    parent_code = (
        "import subprocess, sys, time\n"
        f"p = subprocess.Popen([sys.executable, '-m', 'debugrl_native.learner.service', '--config', {str(cfg)!r}],"
        " stdin=sys.stdin, stdout=subprocess.PIPE)\n"
        "print(p.pid, flush=True)\n"
        "p.stdout.readline()\n"  # ready: the service is past start-up, so only the death signal can stop it now
        "print('ready', flush=True)\n"
        "time.sleep(600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", parent_code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())
        assert parent.stdout.readline().strip() == "ready"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not _gone(child):
            time.sleep(0.2)
        if not _gone(child):
            os.kill(child, signal.SIGKILL)
            raise AssertionError(f"the learner service {child} outlived its SIGKILLed parent by 30 s")
    finally:
        parent.stdin.close()


def _gone(pid: int) -> bool:
    """Exited: no such process, or a zombie its new parent has not reaped yet."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1].startswith("Z")
    except FileNotFoundError:
        return True
