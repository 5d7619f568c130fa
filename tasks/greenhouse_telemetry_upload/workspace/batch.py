"""The body of one upload: calibrated readings, a sequence number and a checksum the service verifies."""
import json
import zlib

from sensors import Calibration, UnknownSensor, kind_of


def checksum(readings):
    canonical = json.dumps(readings, sort_keys=True, separators=(",", ":"))
    return f"{zlib.crc32(canonical.encode('utf-8')):08x}"


def encode_batch(device_id, readings, calibration=None, seq=0):
    """Returns (body, rejected): readings from unknown sensors or out of range are left out and counted."""
    calibration = calibration or Calibration()
    payload, rejected = [], 0
    for reading in readings:
        try:
            value = calibration.apply(reading.sensor, reading.value)
        except UnknownSensor:
            rejected += 1
            continue
        if not calibration.in_range(reading.sensor, value):
            rejected += 1
            continue
        entry = reading.as_dict()
        entry["v"] = value
        entry["u"] = kind_of(reading.sensor).unit
        payload.append(entry)
    body = {"device": device_id, "seq": seq, "readings": payload, "checksum": checksum(payload)}
    return body, rejected


def verify(body):
    return body.get("checksum") == checksum(body.get("readings", []))
