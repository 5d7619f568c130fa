import threading

import pytest

from archive import ReportArchive, ReportExistsError
from report_codec import GzipCodec


def test_publish_and_read_back(tmp_path):
    archive = ReportArchive(tmp_path / "reports")
    archive.publish("q3-sales", "total: 1200\n")
    assert archive.read("q3-sales") == "total: 1200\n"
    assert archive.names() == ["q3-sales"]
    assert archive.leftovers() == []


def test_second_publish_of_same_name_is_refused(tmp_path):
    archive = ReportArchive(tmp_path)
    archive.publish("daily", "v1")
    with pytest.raises(ReportExistsError):
        archive.publish("daily", "v2")
    assert archive.read("daily") == "v1"


def test_bad_names_are_rejected(tmp_path):
    archive = ReportArchive(tmp_path)
    for bad in ["", "../etc", "Q3", "a b"]:
        with pytest.raises(ValueError):
            archive.publish(bad, "x")


class CompetingCodec(GzipCodec):
    """Encodes slowly: while it runs, another job publishes the same report name."""

    def __init__(self, competitor):
        self.competitor = competitor

    def encode(self, text):
        t = threading.Thread(target=self.competitor, daemon=True)
        t.start()
        t.join(2)
        assert not t.is_alive(), "competing publisher did not finish"
        return super().encode(text)


def race(tmp_path):
    """Job A publishes 'monthly' while job B publishes the same name mid-way."""
    root = tmp_path / "shared"
    outcome = {}

    def job_b():
        outcome["b"] = ReportArchive(root).publish("monthly", "from job B")

    slow = ReportArchive(root, codec=CompetingCodec(job_b))
    try:
        slow.publish("monthly", "from job A")
        outcome["a"] = "published"
    except ReportExistsError:
        outcome["a"] = "refused"
    return ReportArchive(root), outcome


def test_concurrent_publish_keeps_first_report(tmp_path):
    archive, outcome = race(tmp_path)
    assert "b" in outcome
    assert archive.read("monthly") == "from job B", "the report published first was replaced"


def test_concurrent_publish_tells_the_later_job(tmp_path):
    archive, outcome = race(tmp_path)
    assert outcome["a"] == "refused", "job A was told its report was published"
    assert archive.leftovers() == []


def test_prune_keeps_recent_and_minimum_reports(tmp_path):
    import os

    from naming import report_path
    from retention import RetentionRule, prune

    archive = ReportArchive(tmp_path)
    day = 86400
    now = 1_700_000_000
    for age_days, name in [(200, "jan"), (150, "mar"), (100, "may"), (10, "oct")]:
        archive.publish(name, name)
        os.utime(report_path(archive.root, name), (now - age_days * day, now - age_days * day))
    assert prune(archive, RetentionRule(keep_days=90, keep_at_least=2), now=now) == ["jan", "mar"]
    assert archive.names() == ["may", "oct"]
