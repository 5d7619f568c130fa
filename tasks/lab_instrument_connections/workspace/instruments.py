"""Driver for the SPX bench spectrometer, speaking its line protocol over a devlink Link."""
from vendor.devlink import LinkTimeout


class InstrumentError(RuntimeError):
    pass


class InstrumentTimeout(InstrumentError):
    pass


class Spectrometer:
    def __init__(self, link):
        self.link = link

    def _ask(self, command):
        try:
            reply = self.link.query(command)
        except LinkTimeout as exc:
            raise InstrumentTimeout(f"{command}: instrument did not answer") from exc
        if reply.startswith("ERR"):
            raise InstrumentError(f"{command}: {reply[4:]}")
        return reply

    def identify(self):
        vendor, model, serial = self._ask("*IDN?").split(",")
        return {"vendor": vendor, "model": model, "serial": serial}

    def set_integration(self, ms):
        if not 1 <= ms <= 10_000:
            raise ValueError(f"integration time {ms} ms out of range")
        self._ask(f"INT {ms}")

    def calibrate(self, reference):
        self._ask(f"CAL {reference}")

    def measure(self):
        """Peak intensities by wavelength in nm."""
        out = {}
        for pair in self._ask("MEAS?").split(","):
            nm, value = pair.split(":")
            out[int(nm)] = float(value)
        return out
