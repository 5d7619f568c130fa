import os
from datetime import date

import pytest

from gates import Turnstile
from lifts import hhmm, open_lifts
from passes import PassOffice
from reports import busiest_hour, pass_usage, read_log, refusals, rides_by_day
from scanlog import ScanLog

MON, TUE = date(2027, 2, 1), date(2027, 2, 2)


@pytest.fixture
def office():
    o = PassOffice()
    o.issue("P100", "Ana", "day", MON)
    o.issue("P200", "Ben", "multi", MON, days=2)
    o.issue("P300", "Cai", "season", date(2026, 12, 1))
    return o


def test_pass_rules(office):
    assert office.lookup("P100").refusal(TUE) == "outside validity"
    p = office.lookup("P200")
    for d in (MON, TUE):
        p.mark_used(d)
    assert p.refusal(date(2027, 2, 3)) == "all days used"
    assert office.lookup("P300").last_day() == date(2027, 4, 30)
    assert open_lifts(hhmm("08:45")) == ["GONDOLA"]
    assert open_lifts(hhmm("15:45")) == ["CHAIR6", "GONDOLA"]


def test_scans_are_logged(tmp_path, office):
    log = ScanLog(tmp_path)
    gate = Turnstile("GONDOLA", office, log)
    assert gate.scan("P100", MON, hhmm("08:45"))
    assert not gate.scan("P999", MON, hhmm("08:46"))
    assert not gate.scan("P100", MON, hhmm("17:00"))
    entries = read_log(log.path("GONDOLA"))
    assert [e[3] for e in entries] == ["ok", "unknown", "closed"]
    assert refusals(entries) == {"closed": 1, "unknown": 1}


def test_nightly_rotation_starts_fresh_files(tmp_path, office):
    log = ScanLog(tmp_path)
    gate = Turnstile("CHAIR6", office, log)
    gate.scan("P200", MON, hhmm("10:00"))
    gate.scan("P300", MON, hhmm("10:01"))
    assert log.rotate("20270201") == ["chair6.log.20270201"]
    gate.scan("P200", TUE, hhmm("09:15"))
    assert [e[0] for e in read_log(log.path("CHAIR6"))] == ["2027-02-02"]
    assert [e[0] for e in read_log(os.path.join(tmp_path, "chair6.log.20270201"))] == ["2027-02-01", "2027-02-01"]


def test_rides_by_day_across_rotated_files(tmp_path, office):
    log = ScanLog(tmp_path)
    gate = Turnstile("TBAR", office, log)
    gate.scan("P300", MON, hhmm("09:30"))
    log.rotate("mon")
    gate.scan("P300", TUE, hhmm("09:30"))
    gate.scan("P300", TUE, hhmm("10:30"))
    assert rides_by_day(tmp_path, "TBAR") == {"2027-02-01": 1, "2027-02-02": 2}
    assert busiest_hour(tmp_path, "TBAR", "2027-02-02") in (9, 10)
    assert pass_usage(tmp_path) == {"P300": {"TBAR": 3}}
    assert gate.summary() == "Nursery T-bar: 3 rides by 1 passes; none refused"


def test_log_can_be_closed_and_used_again(tmp_path, office):
    log = ScanLog(tmp_path)
    gate = Turnstile("GONDOLA", office, log)
    gate.scan("P300", MON, hhmm("09:00"))
    log.close()
    assert log.open_files() == []
    gate.scan("P300", TUE, hhmm("09:00"))
    assert len(read_log(log.path("GONDOLA"))) == 2
    log.close()
