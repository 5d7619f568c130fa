import pytest

from accounting import Quota, QuotaExceeded

from jobs import PrintJob
from printers import Printer
from spooler import SpoolClosed, Spooler
from workers import PrintRoom


def room(*printers, quota=None):
    spooler = Spooler(quota)
    r = PrintRoom(spooler, printers).start()
    assert spooler.wait_idle(len(printers), 2), "printers never became idle"
    return spooler, r


def test_job_sheets_and_needs():
    job = PrintJob("ana", "report", pages=5, duplex=True, copies=2, color=True)
    assert job.sheets == 6
    assert job.needs() == {"paper:A4", "duplex", "color"}
    with pytest.raises(ValueError):
        PrintJob("ana", "blank", pages=0)


def test_single_printer_prints_in_order():
    spooler, r = room(Printer("hall"))
    ids = [spooler.submit(PrintJob("bo", f"memo {i}", pages=1)) for i in range(3)]
    assert r.wait_done(3, 2)
    assert r.workers[0].printer.output == ids
    assert r.shutdown()


def test_job_goes_to_a_capable_printer():
    spooler, r = room(Printer("mono"), Printer("colour", color=True))
    job_id = spooler.submit(PrintJob("cy", "poster", pages=2, color=True))
    assert r.wait_done(1, 2)
    assert r.done == [("colour", job_id)]
    assert r.shutdown()


def test_idle_printers_keep_serving_after_other_printers_jobs():
    spooler, r = room(Printer("mono"), Printer("colour", color=True))
    spooler.submit(PrintJob("cy", "poster", pages=2, color=True))
    assert r.wait_done(1, 2)
    assert spooler.wait_idle(2, 2), f"printers still serving: {r.alive()}"
    mono_id = spooler.submit(PrintJob("di", "invoice", pages=1))
    assert r.wait_done(2, 2), f"invoice never printed; pending {spooler.pending()}"
    assert mono_id in [job for _, job in r.done]
    assert r.shutdown()


def test_out_of_paper_is_reported_not_fatal():
    spooler, r = room(Printer("tiny", sheets_loaded=3))
    spooler.submit(PrintJob("ed", "thesis", pages=10))
    spooler.submit(PrintJob("ed", "cover", pages=1))
    assert r.wait_done(2, 2)
    assert [job for job, _ in r.workers[0].failed] == [r.done[0][1]]
    assert r.workers[0].sheets == 1
    assert r.shutdown()


def test_shutdown_stops_every_worker():
    spooler, r = room(Printer("a"), Printer("b", duplex=True), Printer("c", papers=("A3",)))
    assert r.shutdown(2), f"still running after close: {r.alive()}"
    with pytest.raises(SpoolClosed):
        spooler.submit(PrintJob("fa", "late", pages=1))


def test_every_printer_stays_available_through_a_mixed_day():
    spooler, r = room(Printer("mono"), Printer("duplex", duplex=True), Printer("big", papers=("A3",)))
    a3 = spooler.submit(PrintJob("gu", "floor plan", pages=1, paper="A3"))
    assert r.wait_done(1, 2)
    assert spooler.wait_idle(3, 2), f"printers still serving: {r.alive()}"
    booklet = spooler.submit(PrintJob("gu", "booklet", pages=8, duplex=True))
    memo = spooler.submit(PrintJob("gu", "memo", pages=1))
    assert r.wait_done(3, 2), f"done {r.done}; pending {spooler.pending()}"
    printed_by = {job: name for name, job in r.done}
    assert printed_by[a3] == "big" and printed_by[booklet] == "duplex"
    assert printed_by[memo] in ("mono", "duplex")
    assert r.shutdown()


def test_quota_refuses_jobs_over_allowance():
    quota = Quota(10, overrides={"boss": 100})
    spooler, r = room(Printer("hall"), quota=quota)
    spooler.submit(PrintJob("ida", "draft", pages=8))
    with pytest.raises(QuotaExceeded):
        spooler.submit(PrintJob("ida", "final", pages=3))
    spooler.submit(PrintJob("boss", "board pack", pages=40))
    assert r.wait_done(2, 2)
    assert (quota.remaining("ida"), quota.remaining("boss")) == (2, 60)
    quota.new_month()
    assert quota.remaining("ida") == 10
    assert r.shutdown()
