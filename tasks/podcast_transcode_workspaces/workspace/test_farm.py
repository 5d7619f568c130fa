import os

import pytest

from episodes import Episode, write_source
from farm import Farm, summary
from transcode import decode_output
from vendor.stepflow import JobFailed


def upload(tmp_path, show, number, samples):
    path = tmp_path / "uploads" / f"{show}{number}.pcm"
    path.parent.mkdir(exist_ok=True)
    write_source(path, samples, rate=10)
    return Episode(show, number, f"{show} #{number}", str(path))


def farm(tmp_path):
    return Farm(str(tmp_path / "work"), str(tmp_path / "public"))


def test_transcode_normalises_and_publishes(tmp_path):
    f = farm(tmp_path)
    result = f.transcode(upload(tmp_path, "gardening", 1, [0, 1000, -1500, 500]))
    assert result["gain"] == 20.0 and result["seconds"] == 0.4
    assert decode_output(result["path"]) == (10, [0, 20000, -30000, 10000])
    assert result["path"].startswith(str(tmp_path / "public"))
    assert f.scratch.leftovers() == []


def test_silent_upload_fails_cleanly(tmp_path):
    f = farm(tmp_path)
    with pytest.raises(JobFailed, match="silent"):
        f.transcode(upload(tmp_path, "quiet", 1, [0, 0, 0]))
    assert f.scratch.leftovers() == []


def test_farm_keeps_working_after_a_failure(tmp_path):
    f = farm(tmp_path)
    report = f.batch([
        upload(tmp_path, "news", 1, [100, -200]),
        upload(tmp_path, "news", 2, [0, 0]),
        upload(tmp_path, "news", 3, [300, 150, -75]),
    ])
    assert report.failed == {"news-002": "normalise: news-002: silent recording"}
    assert report.published == [("news-001", 0.2), ("news-003", 0.3)]
    assert summary(report) == "2 published (0.0 min of audio); failed: news-002 (normalise: news-002: silent recording)"
    assert sorted(os.listdir(tmp_path / "public")) == ["news-001.pcz", "news-003.pcz"]
    assert f.scratch.leftovers() == []


def test_run_history(tmp_path):
    f = farm(tmp_path)
    f.batch([upload(tmp_path, "tech", 1, [5, 6]), upload(tmp_path, "tech", 2, [0])])
    assert [(r.job.slug, r.ok, r.steps) for r in f.runner.history] == [
        ("tech-001", True, ["decode", "normalise", "encode"]), ("tech-002", False, ["decode"])]
