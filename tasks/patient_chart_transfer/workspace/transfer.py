"""Export and import of whole patient charts between clinics."""
from vendor.tagcodec import dumps, loads

from models import PatientChart
from wire import REGISTRY

FORMAT_VERSION = 2
SECTIONS = ("vitals", "labs", "medications", "allergies", "encounters")


class TransferError(ValueError):
    pass


def export_chart(chart):
    doc = {"format": FORMAT_VERSION, "mrn": chart.mrn, "name": chart.name}
    for section in SECTIONS:
        doc[section] = list(getattr(chart, section))
    return dumps(doc, registry=REGISTRY, sort_keys=True)


def import_chart(text):
    doc = loads(text, registry=REGISTRY)
    if doc.get("format") != FORMAT_VERSION:
        raise TransferError(f"unsupported chart format {doc.get('format')!r}")
    chart = PatientChart(doc["mrn"], doc["name"])
    for section in SECTIONS:
        setattr(chart, section, list(doc.get(section, [])))
    return chart


def allergy_alerts(chart, medications):
    """Medications on the order that the patient is allergic to, with the reaction on file."""
    allergic = {a.substance.lower(): a for a in chart.allergies}
    return [(m.name, allergic[m.name.lower()].reaction) for m in medications if m.name.lower() in allergic]


def abnormal_labs(chart):
    return [(lab.test, lab.flag) for lab in chart.labs if lab.flag]
