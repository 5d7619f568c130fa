"""A simulated spectrometer behind a transport, for the bench rehearsal mode."""


class SimulatedSpectrometer:
    def __init__(self, serial="SPX-0042", stall_on=()):
        self.serial = serial
        self.integration_ms = 100
        self.calibrated_with = None
        self.stall_on = set(stall_on)
        self.measurements = 0
        self._reply = b""

    def write(self, data):
        command = data.decode("ascii").strip()
        verb, _, arg = command.partition(" ")
        if verb == "*IDN?":
            self._reply = f"ACME,SPX,{self.serial}".encode()
        elif verb == "INT":
            self.integration_ms = int(arg)
            self._reply = b"OK"
        elif verb == "CAL":
            self.calibrated_with = arg
            self._reply = b"OK"
        elif verb == "MEAS?":
            self.measurements += 1
            if self.measurements in self.stall_on:
                raise TimeoutError(f"no answer to measurement {self.measurements}")
            scale = self.integration_ms / 100
            peaks = {450: 0.12, 532: 0.87, 650: 0.33}
            self._reply = ",".join(f"{nm}:{v * scale:.3f}" for nm, v in peaks.items()).encode()
        else:
            self._reply = f"ERR unknown command {verb}".encode()

    def readline(self):
        reply, self._reply = self._reply, b""
        return reply + b"\n"
