import pytest

from batch import encode_batch, verify
from buffer import Reading, ReadingBuffer
from retry import TransientError
from sensors import Calibration, UnknownSensor, describe, kind_of, load_offsets
from uploader import TelemetryUploader


class FlakyService:
    """Accepts posts after failing the first `failures` of them with a transient error."""

    def __init__(self, failures=0):
        self.failures = failures
        self.received = []
        self.posts = 0

    def post(self, path, body):
        self.posts += 1
        if self.failures:
            self.failures -= 1
            raise TransientError("503 service unavailable")
        assert path == "/v1/readings" and verify(body)
        self.received.extend(body["readings"])


def setup(failures=0, readings=3):
    service = FlakyService(failures)
    buffer = ReadingBuffer(max_size=10)
    for n in range(readings):
        buffer.add(Reading("soil-1", 1000 + n, 20.0 + n))
    uploader = TelemetryUploader(service, buffer, "gh-7", sleep=lambda seconds: None)
    return service, buffer, uploader


def test_flush_sends_every_buffered_reading():
    service, buffer, uploader = setup()
    assert uploader.flush() == 3
    assert [r["t"] for r in service.received] == [1000, 1001, 1002]
    assert len(buffer) == 0


def test_flush_with_nothing_buffered_does_not_call_service():
    service, _, uploader = setup(readings=0)
    assert uploader.flush() == 0
    assert service.posts == 0


def test_flush_survives_a_transient_failure():
    service, buffer, uploader = setup(failures=1)
    assert uploader.flush() == 3
    assert service.posts == 2
    assert [r["t"] for r in service.received] == [1000, 1001, 1002]


def test_readings_wait_for_next_flush_when_service_stays_down():
    service, buffer, uploader = setup(failures=3)
    with pytest.raises(TransientError):
        uploader.flush()
    buffer.add(Reading("soil-1", 2000, 25.0))
    assert uploader.flush() == 4
    assert [r["t"] for r in service.received] == [1000, 1001, 1002, 2000]


def test_full_buffer_drops_oldest_readings():
    service, buffer, uploader = setup(readings=12)
    uploader.flush()
    assert [r["t"] for r in service.received] == list(range(1002, 1012))


def test_batch_calibrates_and_rejects():
    readings = [Reading("soil-1", 1, 40.04), Reading("co2-2", 2, 812.4), Reading("soil-2", 3, 120.0), Reading("leaf-1", 4, 1.0)]
    body, rejected = encode_batch("gh-7", readings, Calibration({"soil-1": -1.5}), seq=9)
    assert [(r["sensor"], r["v"], r["u"]) for r in body["readings"]] == [("soil-1", 38.5, "%"), ("co2-2", 812.0, "ppm")]
    assert rejected == 2 and body["seq"] == 9 and verify(body)
    with pytest.raises(UnknownSensor):
        kind_of("soil")
    cal = load_offsets("# visit 2026-04\nsoil-1 -1.5\n\nco2-2 12  # new probe\n")
    assert cal.offsets == {"soil-1": -1.5, "co2-2": 12.0}
    assert describe("co2-2", cal.apply("co2-2", 800.2)) == "co2-2: 812 ppm"


def test_uploads_are_numbered():
    service, buffer, uploader = setup(readings=2)
    uploader.flush()
    buffer.add(Reading("air-temp-1", 3000, 21.5))
    buffer.add(Reading("air-temp-1", 3001, 99.0))
    assert uploader.flush() == 1
    assert uploader.seq == 2 and uploader.rejected == 1
