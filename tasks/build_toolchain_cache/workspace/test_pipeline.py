import pytest

from jobs import Job, PipelineError, parse_pipeline
from runner import Runner, StepError
from toolchains import Installer
from vendor.memokit import LRUStore, memoize

PIPELINE = {
    "jobs": {
        "lint": {"image": "ci/base:22.04", "steps": ["$python -m ruff check ."]},
        "test": {
            "image": "ci/base:22.04",
            "steps": ["$python -m pytest -q", "$node scripts/report.js"],
            "matrix": {"PYTHON_VERSION": ["3.11", "3.12"], "ARCH": ["amd64"]},
        },
    }
}


def test_library_memoize_counts_hits():
    calls = []
    store = LRUStore(maxsize=2)
    square = memoize(store)(lambda x: calls.append(x) or x * x)
    assert [square(3), square(3), square(4)] == [9, 9, 16]
    assert calls == [3, 4] and square.cache_info().hits == 1


def test_parse_expands_the_matrix():
    jobs = parse_pipeline(PIPELINE)
    assert [j.name for j in jobs] == ["lint", "test (amd64, 3.11)", "test (amd64, 3.12)"]
    assert jobs[2].env == {"ARCH": "amd64", "PYTHON_VERSION": "3.12"}


def test_single_job_uses_default_toolchain():
    result = Runner(Installer()).run_job(Job("lint", "ci/base:22.04", ["$python -m ruff check ."]))
    assert result.commands == ["/opt/python/3.11-amd64/bin/python -m ruff check ."]
    assert result.artifact == "lint-py3.11-node20-amd64.tar.gz"


def test_identical_jobs_install_once():
    installer = Installer()
    runner = Runner(installer)
    job = Job("unit", "ci/base:22.04", ["$python -m pytest"], {"PYTHON_VERSION": "3.12"})
    runner.run([job, job.with_env()])
    assert len(installer.installs) == 1
    assert runner.summary() == {"jobs": 2, "cache_hits": 1, "cache_misses": 1}


def test_unrelated_env_does_not_reinstall():
    installer = Installer()
    runner = Runner(installer)
    base = Job("unit", "ci/base:22.04", ["$python -m pytest --junitxml=$CI_JOB_ID.xml"], {"PYTHON_VERSION": "3.12"})
    first, second = runner.run([base.with_env(CI_JOB_ID="101"), base.with_env(CI_JOB_ID="102")])
    assert second.commands == ["/opt/python/3.12-amd64/bin/python -m pytest --junitxml=102.xml"]
    assert len(installer.installs) == 1


def test_matrix_jobs_get_their_own_python():
    results = Runner(Installer()).run(parse_pipeline(PIPELINE))
    by_name = {r.job: r for r in results}
    assert by_name["test (amd64, 3.11)"].commands[0] == "/opt/python/3.11-amd64/bin/python -m pytest -q"
    assert by_name["test (amd64, 3.12)"].commands[0] == "/opt/python/3.12-amd64/bin/python -m pytest -q"
    assert by_name["test (amd64, 3.12)"].artifact == "test-py3.12-node20-amd64.tar.gz"


def test_matrix_installs_each_version_once():
    installer = Installer()
    runner = Runner(installer)
    jobs = parse_pipeline(PIPELINE)
    runner.run(jobs[1:] + jobs[1:])
    assert sorted(i[1] for i in installer.installs) == ["3.11", "3.12"]
    assert runner.summary()["cache_hits"] == 2


def test_small_cache_evicts_and_reinstalls():
    installer = Installer()
    runner = Runner(installer, cache_size=1)
    a = Job("a", "ci/base:22.04", ["$python -V"])
    b = Job("b", "ci/alpine:3.19", ["$python -V"])
    runner.run([a, b, a])
    assert [i[0] for i in installer.installs] == ["ci/base:22.04", "ci/alpine:3.19", "ci/base:22.04"]


def test_step_with_unknown_variable():
    with pytest.raises(StepError, match=r"\$DEPLOY_TOKEN"):
        Runner(Installer()).run_job(Job("deploy", "ci/base:22.04", ["deploy --token $DEPLOY_TOKEN"]))


def test_pipeline_errors():
    with pytest.raises(PipelineError, match="no image"):
        parse_pipeline({"jobs": {"x": {"steps": ["true"]}}})
    with pytest.raises(PipelineError, match="non-empty step"):
        parse_pipeline({"jobs": {"x": {"image": "i", "steps": [" "]}}})
