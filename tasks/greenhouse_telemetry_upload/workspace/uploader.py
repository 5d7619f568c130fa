"""Pushes buffered readings to the telemetry service in one batch per flush."""
import time

from retry import retry_call


class TelemetryUploader:
    def __init__(self, client, buffer, device_id, attempts=3, sleep=time.sleep):
        self._client = client
        self._buffer = buffer
        self._device_id = device_id
        self._attempts = attempts
        self._sleep = sleep

    def flush(self):
        """Send everything buffered; return how many readings the service accepted."""
        if not len(self._buffer):
            return 0
        readings = self._buffer.drain()
        return retry_call(self._post, readings, attempts=self._attempts, sleep=self._sleep)

    def _post(self, readings):
        payload = [reading.as_dict() for reading in readings]
        self._client.post("/v1/readings", {"device": self._device_id, "readings": payload})
        return len(payload)
