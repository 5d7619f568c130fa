import json
from datetime import date

from patient import Patient
from recalls import due_reminders
from records_store import read_patients, write_patients

TODAY = date(2024, 6, 3)


def write_lines(tmp_path, *rows):
    path = tmp_path / "patients.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_recall_date_adds_months():
    p = Patient("P1", "Jo", last_visit=date(2023, 11, 30), recall_months=6)
    assert p.recall_due_on() == date(2024, 5, 28)


def test_reminders_pick_the_best_channel():
    patients = [
        Patient("P1", "Jo", mobile_phone="+49 151 555 0101", last_visit=date(2023, 11, 2)),
        Patient("P2", "Sam", email="sam@example.org", last_visit=date(2023, 10, 9)),
        Patient("P3", "Ali", last_visit=date(2024, 5, 1)),
    ]
    assert due_reminders(patients, TODAY) == [("P1", "sms"), ("P2", "email")]


def test_current_records_round_trip(tmp_path):
    patients = [Patient("P1", "Jo", "+49 151 555 0101", "jo@example.org", 12, date(2023, 6, 1))]
    write_patients(patients, tmp_path / "patients.jsonl")
    assert read_patients(tmp_path / "patients.jsonl") == patients


def test_keys_from_newer_versions_are_ignored(tmp_path):
    path = write_lines(tmp_path, {"patient_id": "P9", "name": "Kim", "insurer": "AOK", "last_visit": "2023-01-05"})
    assert read_patients(path) == [Patient("P9", "Kim", last_visit=date(2023, 1, 5))]


def test_patients_from_old_files_get_text_reminders(tmp_path):
    path = write_lines(
        tmp_path,
        {"patient_id": "P1", "name": "Jo", "phone": "+49 151 555 0101", "recall_interval": 6, "last_visit": "2023-11-02"},
        {"patient_id": "P2", "name": "Sam", "email": "sam@example.org", "last_visit": "2023-10-09"},
    )
    assert due_reminders(read_patients(path), TODAY) == [("P1", "sms"), ("P2", "email")]


def test_old_recall_interval_is_kept(tmp_path):
    path = write_lines(tmp_path, {"patient_id": "P4", "name": "Eva", "recall_interval": 12, "last_visit": "2023-09-14"})
    assert due_reminders(read_patients(path), TODAY) == []
