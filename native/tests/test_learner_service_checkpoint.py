"""The learner service's score request and its checkpoints: a service restarted from the last adapter folder resumes
the optimizer and KL state, so its next step equals the step an uninterrupted service would have taken."""

import json
import subprocess
import sys

import pytest

from debugrl_native.learner.synthetic import synthetic_batch


def _serve(cfg, requests, adapter=None):
    cmd = [sys.executable, "-m", "debugrl_native.learner.service", "--config", str(cfg)]
    if adapter:
        cmd += ["--adapter", str(adapter)]
    proc = subprocess.run(cmd, input="".join(json.dumps(r) + "\n" for r in requests), capture_output=True, text=True,
                          timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(x) for x in proc.stdout.splitlines()]


def _step(rid, batch):
    return {"type": "train_step", "request_id": rid, "batch": {"kind": "inline", "batch": batch.model_dump(mode="json")}}


@pytest.mark.slow
def test_score_and_resume_from_checkpoint(tmp_path):
    b1, b2 = synthetic_batch(128, groups=1, seed=1), synthetic_batch(128, groups=1, seed=2)
    step = b1.groups[0].trajectories[0].steps[0]
    seq = {"prompt_ids": step.prompt_ids, "completion_ids": step.completion_ids}
    score = {"type": "score", "request_id": "s", "sequences": [seq]}

    def cfg(name):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"lora": {"rank": 4, "alpha": 8.0}, "output_dir": str(tmp_path / name),
                                    "optim": {"lr": 1e-2}}))
        return path

    straight = _serve(cfg("a"), [_step("1", b1), _step("2", b2), score])
    assert [m["policy_version"] for m in straight[1:]] == [1, 2, 2]
    assert (tmp_path / "a" / "v1" / "trainer_state.pt").is_file()
    scored = straight[3]
    assert scored["type"] == "score_result" and len(scored["logprobs"][0]) == len(step.completion_ids)
    assert all(x <= 0 for x in scored["logprobs"][0])

    first = _serve(cfg("b"), [_step("1", b1)])
    resumed = _serve(cfg("b"), [_step("2", b2), score], adapter=tmp_path / "b" / "v1")
    assert resumed[0]["policy_version"] == 1  # the ready line: resumed at the checkpoint's version
    assert resumed[1]["policy_version"] == 2
    # Same optimizer moments after the restart: the same weights, so the same logprobs (to float rounding).
    diffs = [abs(x - y) for x, y in zip(resumed[2]["logprobs"][0], scored["logprobs"][0])]
    assert max(diffs) < 1e-5, diffs
    assert first[1]["metrics"]["loss_policy"] == straight[1]["metrics"]["loss_policy"]

    bad = _serve(cfg("c"), [{"type": "score", "request_id": "x", "sequences": [{"prompt_ids": [999], "completion_ids": [1]}]}])
    assert bad[1]["type"] == "error" and bad[1]["error_kind"] == "invalid_request" and "vocabulary" in bad[1]["message"]
