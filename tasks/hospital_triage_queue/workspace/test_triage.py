import pytest

from board import breaches, occupancy, waiting_board
from department import EmergencyDepartment
from patients import TriageError, assess

CALM = {"hr": 80, "pain": 2}
SORE = {"hr": 90, "pain": 5}
BAD = {"hr": 140}
CRASH = {"spo2": 80}


def test_assessment_levels():
    assert [assess(v) for v in (CRASH, BAD, {"pain": 8}, SORE, CALM)] == [1, 2, 3, 4, 5]


def test_most_urgent_first_then_arrival():
    ed = EmergencyDepartment(["b1", "b2", "b3"])
    ed.arrive("ann", CALM, 0)
    ed.arrive("bob", SORE, 1)
    ed.arrive("cat", SORE, 2)
    ed.arrive("dan", BAD, 3)
    assert ed.queue.waiting() == ["P004", "P002", "P003", "P001"]
    assert ed.fill_beds(5) == [("b1", "P004"), ("b2", "P002"), ("b3", "P003")]


def test_leaving_patient_is_removed():
    ed = EmergencyDepartment(["b1"])
    ed.arrive("ann", CALM, 0)
    ed.arrive("bob", SORE, 1)
    assert ed.queue.leave("P002")
    assert ed.fill_beds(3) == [("b1", "P001")]


def test_deteriorating_patient_is_seen_next():
    ed = EmergencyDepartment(["b1"])
    for i, name in enumerate(["ann", "bob", "cat", "dan", "eve"]):
        ed.arrive(name, SORE if i % 2 else CALM, i)
    ed.deteriorated("P005", CRASH, 10)
    assert ed.queue.peek().pid == "P005"
    assert ed.fill_beds(11) == [("b1", "P005")]


def test_improving_patient_waits_behind_others():
    ed = EmergencyDepartment(["b1", "b2"])
    ed.arrive("ann", BAD, 0)
    ed.arrive("bob", SORE, 1)
    ed.arrive("cat", SORE, 2)
    ed.deteriorated("P001", CALM, 5)
    assert ed.fill_beds(6) == [("b1", "P002"), ("b2", "P003")]


def test_order_after_several_reassessments():
    ed = EmergencyDepartment(["b1", "b2", "b3", "b4"])
    for i in range(6):
        ed.arrive(f"p{i}", CALM, i)
    ed.deteriorated("P006", BAD, 10)
    ed.deteriorated("P003", SORE, 11)
    ed.deteriorated("P004", CRASH, 12)
    assert [pid for _, pid in ed.fill_beds(13)] == ["P004", "P006", "P003", "P001"]


def test_board_and_breaches():
    ed = EmergencyDepartment(["b1"])
    ed.arrive("ann", CALM, 0)
    ed.arrive("bob", BAD, 10)
    assert waiting_board(ed, 40) == ["P002 L2 emergent       30 min OVERDUE", "P001 L5 non-urgent     40 min"]
    assert breaches(ed, 40) == [("P002", 15)]
    assert occupancy(ed) == "0/1 beds, 2 waiting"
    from board import longest_wait

    assert longest_wait(ed, 40) == ("P001", 40)


def test_duplicate_and_unknown():
    ed = EmergencyDepartment(["b1"])
    with pytest.raises(TriageError):
        ed.deteriorated("P999", BAD, 0)


def test_handover_report_after_reassessment():
    from handover import Handover, handover_report, level_counts

    ed = EmergencyDepartment(["b1", "b2"])
    ed.arrive("ann", SORE, 0)
    ed.fill_beds(1)
    for i, name in enumerate(["bob", "cat", "dan"]):
        ed.arrive(name, CALM, 2 + i)
    ed.deteriorated("P004", BAD, 8)
    h = Handover("night")
    h.note("P001", "awaiting x-ray", "rn-kim", 5)
    lines = handover_report(ed, h, 75)
    assert lines[:3] == ["Handover night at 01:15", "  b1: P001 ann (L4)", "      - awaiting x-ray"]
    assert lines[5] == "    next: P004 dan L2 emergent"
    assert level_counts(ed) == {1: 0, 2: 1, 3: 0, 4: 0, 5: 2}
    assert ed.fill_beds(80) == [("b2", "P004")]
