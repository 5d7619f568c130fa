from devices import DeviceError, DevicePool


class BrokenItem(DeviceError):
    pass


class Playout:
    def __init__(self, pool: DevicePool):
        self.pool = pool
        self.log = []
        self.failed = []

    def play(self, stream_id, items):
        device = self.pool.acquire()
        try:
            device.open(stream_id)
            for item in items:
                if item.title.startswith("!"):
                    raise BrokenItem(f"cannot decode {item.title}")
                device.write(stream_id, item.title)
                self.log.append((stream_id, device.name, item.title))
        except BrokenItem as exc:
            self.failed.append((stream_id, str(exc)))
            return False
        finally:
            self.pool.release(device)
        return True

    def on_air(self):
        return {d.name: d.stream for d in self.pool.devices.values() if d.stream is not None}
