"""Admission requests as the two source systems send them.

The emergency department sends pipe-separated ADT lines: `ADT|A01|<patient>|<ward>|<flags>`, with flags like
`ISO` (needs an isolation bed) separated by `^`. Scheduled surgery sends JSON-like dicts.
"""
from admissions import AdmissionRequest

ADT_EVENTS = {"A01": "admit", "A02": "transfer", "A03": "discharge"}


class IntakeError(ValueError):
    pass


def parse_adt(line):
    fields = line.rstrip("\r\n").split("|")
    if len(fields) < 4 or fields[0] != "ADT":
        raise IntakeError(f"not an ADT message: {line!r}")
    event = ADT_EVENTS.get(fields[1])
    if event is None:
        raise IntakeError(f"unknown ADT event {fields[1]!r}")
    patient, ward = fields[2].strip(), fields[3]
    if not patient:
        raise IntakeError("ADT message without a patient id")
    flags = {f.strip().upper() for f in (fields[4].split("^") if len(fields) > 4 else []) if f.strip()}
    return event, AdmissionRequest(patient, ward, isolation="ISO" in flags, source="ed")


def parse_surgery(item):
    missing = [k for k in ("patient_id", "post_op_ward") if not item.get(k)]
    if missing:
        raise IntakeError(f"surgery booking missing {', '.join(missing)}")
    precautions = [p.lower() for p in item.get("precautions", [])]
    return AdmissionRequest(
        str(item["patient_id"]),
        item["post_op_ward"],
        isolation="contact" in precautions or "airborne" in precautions,
        source="surgery",
    )


def admissions_from(ed_lines=(), surgery_items=()):
    """The admit requests of both feeds, ED first; other ADT events are returned separately."""
    admits, others = [], []
    for line in ed_lines:
        if not line.strip():
            continue
        event, request = parse_adt(line)
        (admits if event == "admit" else others).append((event, request) if event != "admit" else request)
    admits.extend(parse_surgery(item) for item in surgery_items)
    return admits, others
