import pytest

from models import Allergy, BloodPressure, Encounter, LabResult, Medication, PatientChart, VitalSign
from transfer import TransferError, abnormal_labs, allergy_alerts, export_chart, import_chart
from vendor.tagcodec import DecodeError, ExtRegistry, dumps, loads


def make_chart():
    return PatientChart(
        mrn="MRN-00412",
        name="Ines Duarte",
        vitals=[VitalSign("heart_rate", 88.0, "bpm", "2026-03-01T09:10"), BloodPressure(146, 92, "2026-03-01T09:12")],
        labs=[LabResult("potassium", 5.9, "mmol/L", 3.5, 5.1), LabResult("sodium", 139.0, "mmol/L", 135.0, 145.0)],
        medications=[Medication("lisinopril", 10.0, 1)],
        allergies=[Allergy("penicillin", "hives", "severe"), Allergy("latex", "rash")],
        encounters=[Encounter("E-77", "cardiology", "chest pain", "2026-03-01T09:00")],
    )


def test_library_roundtrips_a_registered_type():
    class Point:
        def __init__(self, x, y):
            self.x, self.y = x, y

    reg = ExtRegistry()
    reg.register(5, Point, lambda p: [p.x, p.y], lambda d: Point(*d))
    p = loads(dumps({"at": Point(1, 2)}, registry=reg), registry=reg)["at"]
    assert (p.x, p.y) == (1, 2)
    with pytest.raises(DecodeError, match="unknown extension code 9"):
        loads('{"$ext": 9, "data": null}', registry=reg)


def test_vitals_and_labs_survive_transfer():
    chart = import_chart(export_chart(make_chart()))
    assert chart.vitals == make_chart().vitals
    assert chart.vitals[1].hypertensive
    assert abnormal_labs(chart) == [("potassium", "H")]


def test_encounters_survive_transfer():
    chart = import_chart(export_chart(make_chart()))
    assert chart.encounters == [Encounter("E-77", "cardiology", "chest pain", "2026-03-01T09:00")]


def test_whole_chart_roundtrip():
    original = make_chart()
    assert import_chart(export_chart(original)) == original


def test_allergy_alerts_after_transfer():
    chart = import_chart(export_chart(make_chart()))
    order = [Medication("Penicillin", 500.0, 4), Medication("ibuprofen", 400.0, 3)]
    assert allergy_alerts(chart, order) == [("Penicillin", "hives")]


def test_allergy_alerts_locally():
    order = [Medication("LATEX", 0.0, 0)]
    assert allergy_alerts(make_chart(), order) == [("LATEX", "rash")]


def test_unknown_format_is_refused():
    text = export_chart(make_chart()).replace('"format": 2', '"format": 1')
    with pytest.raises(TransferError, match="format 1"):
        import_chart(text)
