"""Pushes buffered readings to the telemetry service in one batch per flush."""
import time

from batch import encode_batch
from retry import TransientError, retry_call


class TelemetryUploader:
    def __init__(self, client, buffer, device_id, attempts=3, sleep=time.sleep, calibration=None):
        self._client = client
        self._buffer = buffer
        self._device_id = device_id
        self._attempts = attempts
        self._sleep = sleep
        self._calibration = calibration
        self.seq = 0
        self.rejected = 0

    def flush(self):
        """Send everything buffered; return how many readings the service accepted."""
        readings = list(self._buffer.drain())
        if not readings:
            return 0
        try:
            return retry_call(self._post, readings, attempts=self._attempts, sleep=self._sleep)
        except TransientError:
            self._buffer.restore(readings)
            raise

    def _post(self, readings):
        body, rejected = encode_batch(self._device_id, readings, self._calibration, self.seq + 1)
        self._client.post("/v1/readings", body)
        self.seq += 1
        self.rejected += rejected
        return len(body["readings"])
