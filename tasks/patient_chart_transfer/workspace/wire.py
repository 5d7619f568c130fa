"""The wire format of chart records: each record type is a tagcodec extension type."""
import dataclasses
import zlib

from vendor.tagcodec import MAX_CODE, ExtRegistry

from models import Allergy, BloodPressure, Encounter, LabResult, Medication, VitalSign

RECORD_TYPES = (VitalSign, BloodPressure, LabResult, Medication, Allergy, Encounter)


def type_code(cls):
    return zlib.crc32(cls.__name__.encode()) % (MAX_CODE + 1)


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
