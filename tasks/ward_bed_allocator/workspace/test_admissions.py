import threading

import pytest

from admissions import AdmissionDesk, AdmissionRequest
from intake import IntakeError, admissions_from, parse_adt
from locking import WardLocks
from reports import double_booked, movements, occupancy_lines, who_is_where
from wards import BedBoard, NoBedAvailable, Ward


def make_board():
    return BedBoard([
        Ward("ICU", ["icu-1", "icu-2"], isolation={"icu-2"}),
        Ward("Cardiology", ["card-1", "card-2", "card-3"]),
    ])


def pause_until_both(barrier):
    def hook(stage, request):
        if stage == "checked":
            try:
                barrier.wait(timeout=0.5)
            except threading.BrokenBarrierError:
                pass
    return hook


def run_admissions(desk, requests):
    results, errors = {}, []

    def worker(req):
        try:
            results[req.patient] = desk.admit(req)
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(r,), daemon=True) for r in requests]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=3)
        assert not t.is_alive(), "admission thread did not finish"
    return results, errors


def test_admit_and_discharge():
    board = make_board()
    desk = AdmissionDesk(board)
    assert desk.admit(AdmissionRequest("p1", "ICU")) == "icu-1"
    assert desk.admit(AdmissionRequest("p2", "icu", isolation=True)) == "icu-2"
    with pytest.raises(NoBedAvailable):
        desk.admit(AdmissionRequest("p3", "Icu"))
    assert desk.discharge("p1") == "icu-1"
    assert board.census()["ICU"] == (1, 2)
    assert occupancy_lines(board) == ["Cardiology   0/3 (0%)", "ICU          1/2 (50%)"]
    assert movements(desk) == {"admit": 2, "transfer": 0, "discharge": 1, "waitlist": 1}


def test_transfer_moves_the_patient():
    board = make_board()
    desk = AdmissionDesk(board)
    desk.admit(AdmissionRequest("p1", "ICU"))
    assert desk.transfer("p1", "cardiology") == "card-1"
    assert board.occupancy == {"card-1": "p1"}


def test_concurrent_admissions_same_spelling():
    board = make_board()
    barrier = threading.Barrier(2)
    desk = AdmissionDesk(board, WardLocks(), hook=pause_until_both(barrier))
    results, errors = run_admissions(desk, [AdmissionRequest("p1", "Cardiology"), AdmissionRequest("p2", "Cardiology")])
    assert errors == [] and sorted(results.values()) == ["card-1", "card-2"]


def test_concurrent_admissions_from_ed_and_surgery():
    board = make_board()
    barrier = threading.Barrier(2)
    desk = AdmissionDesk(board, WardLocks(), hook=pause_until_both(barrier))
    requests, _ = admissions_from(["ADT|A01|p1|Cardiology|"], [{"patient_id": "p2", "post_op_ward": "CARDIOLOGY "}])
    assert [r.source for r in requests] == ["ed", "surgery"]
    results, errors = run_admissions(desk, requests)
    assert errors == []
    assert sorted(results.values()) == ["card-1", "card-2"]
    assert double_booked(board) == []
    assert sorted(who_is_where(board)["Cardiology"].values()) == ["p1", "p2"]


def test_ward_lookup_ignores_case_and_spacing():
    board = make_board()
    assert board.ward(" cardiology").name == "Cardiology"
    assert board.free_beds("icu", isolation=True) == ["icu-2"]


def test_intake_feeds():
    admits, others = admissions_from(
        ["ADT|A01|p7|ICU|ISO^DNR", "", "ADT|A03|p1|Cardiology"],
        [{"patient_id": 88, "post_op_ward": "icu", "precautions": ["Contact"]}],
    )
    assert admits == [AdmissionRequest("p7", "ICU", True, "ed"), AdmissionRequest("88", "icu", True, "surgery")]
    assert others == [("discharge", AdmissionRequest("p1", "Cardiology", False, "ed"))]
    with pytest.raises(IntakeError, match="unknown ADT event"):
        parse_adt("ADT|Z99|p1|ICU")
    with pytest.raises(IntakeError, match="post_op_ward"):
        admissions_from([], [{"patient_id": "p3"}])
