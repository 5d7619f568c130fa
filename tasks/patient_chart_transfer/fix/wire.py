"""The wire format of chart records: each record type is a tagcodec extension type."""
import dataclasses

from vendor.tagcodec import ExtRegistry

from models import Allergy, BloodPressure, Encounter, LabResult, Medication, VitalSign

RECORD_TYPES = (VitalSign, BloodPressure, LabResult, Medication, Allergy, Encounter)
TYPE_CODES = {VitalSign: 1, BloodPressure: 2, LabResult: 3, Medication: 4, Allergy: 5, Encounter: 6}


def type_code(cls):
    return TYPE_CODES[cls]


def to_wire(record):
    return dataclasses.asdict(record)


def from_wire(cls):
    names = {f.name for f in dataclasses.fields(cls)}

    def decode(data):
        # Fields added by newer senders are dropped; fields they left out take the defaults.
        return cls(**{k: v for k, v in data.items() if k in names})

    return decode


def build_registry(types=RECORD_TYPES):
    registry = ExtRegistry()
    for cls in types:
        registry.register(type_code(cls), cls, to_wire, from_wire(cls))
    return registry


REGISTRY = build_registry()
