class DeviceError(RuntimeError):
    pass


class NoFreeDevice(DeviceError):
    pass


class AudioOutput:
    """A sound-card output; only one stream may play through it at a time."""

    def __init__(self, name):
        self.name = name
        self.stream = None
        self.played = []

    def open(self, stream_id):
        if self.stream is not None:
            raise DeviceError(f"{self.name} is already playing {self.stream}")
        self.stream = stream_id

    def write(self, stream_id, item):
        if self.stream != stream_id:
            raise DeviceError(f"{self.name} belongs to {self.stream}, not {stream_id}")
        self.played.append(item)

    def close(self):
        self.stream = None


class DevicePool:
    def __init__(self, names):
        self.devices = {n: AudioOutput(n) for n in names}
        self._free = list(names)
        self.checkouts = 0

    def acquire(self):
        if not self._free:
            raise NoFreeDevice("all outputs are busy")
        self.checkouts += 1
        return self.devices[self._free.pop(0)]

    def release(self, device):
        device.close()
        self._free.append(device.name)

    def free(self):
        return sorted(self._free)

    def busiest(self):
        counts = {name: len(d.played) for name, d in self.devices.items()}
        return max(sorted(counts), key=counts.get) if counts else None

    def utilisation(self):
        busy = sum(1 for d in self.devices.values() if d.stream is not None)
        return f"{busy}/{len(self.devices)} outputs busy"
