import threading

import pytest

from export import ExportTimeout, ReportExport
from sources import SectionFailed, Warehouse
from vendor.workpool import Pool, wait


def test_pool_runs_calls_and_callbacks():
    pool = Pool(2)
    seen = []
    futures = pool.map(lambda x: x * x, [1, 2, 3])
    for f in futures:
        f.add_done_callback(lambda fut: seen.append(fut.result()))
    done, pending = wait(futures, timeout=2)
    assert [f.result() for f in done] == [1, 4, 9] and pending == []
    assert sorted(seen) == [1, 4, 9]
    pool.shutdown()


def test_pool_reports_exceptions():
    pool = Pool(1)
    future = pool.submit(lambda: 1 / 0)
    assert isinstance(future.exception(timeout=2), ZeroDivisionError)
    pool.shutdown()


def run_in_thread(fn):
    box = {}

    def target():
        try:
            box["value"] = fn()
        except Exception as exc:
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout=5)
    assert not t.is_alive(), "export still running after 5 s"
    return box


def test_export_renders_all_sections():
    export = ReportExport(Warehouse(), ["revenue", "refunds", "signups"])
    box = run_in_thread(lambda: export.run(timeout=1.0).csv())
    export.close()
    assert "error" not in box, box.get("error")
    assert box["value"].splitlines() == ["month,revenue,refunds,signups", "2026-09,120400,2100,410", "2026-10,131900,1700,455", "2026-11,128300,2950,502"]


def test_failed_section_is_retried():
    export = ReportExport(Warehouse(failing={"churn"}), ["signups", "churn"])
    box = run_in_thread(lambda: export.run(timeout=1.0))
    assert "error" not in box, box.get("error")
    assert list(export.failures) == ["churn"]
    with pytest.raises(SectionFailed):
        export.csv()
    box = run_in_thread(lambda: export.retry_failed(timeout=1.0).csv())
    export.close()
    assert "error" not in box, box.get("error")
    assert box["value"].splitlines()[-1] == "2026-11,502,35"


def test_progress_lists_sections_as_they_finish():
    export = ReportExport(Warehouse(), ["revenue", "refunds", "signups"], workers=1)
    box = run_in_thread(lambda: export.run(timeout=1.0))
    export.close()
    assert "error" not in box, box.get("error")
    assert export.progress == ["revenue", "refunds", "signups"]


def test_unknown_section_is_a_failure_not_a_crash():
    export = ReportExport(Warehouse(delay=0), ["nope"], workers=1)
    future = export.pool.submit(export.warehouse.query, "nope")
    assert isinstance(future.exception(timeout=2), KeyError)
    export.close()
