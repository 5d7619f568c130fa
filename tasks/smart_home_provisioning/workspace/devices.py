"""Devices as the hub sees them."""
from events import Emitter


class Device:
    def __init__(self, device_id: str, kind: str):
        self.device_id = device_id
        self.kind = kind
        self.events = Emitter()
        self.online = False
        self.config: dict = {}
        self.clock_offset_s: float | None = None
        self.firmware = "1.0.0"

    def connect(self) -> None:
        self.online = True
        self.events.emit("connected", self)

    def disconnect(self) -> None:
        self.online = False
        self.events.emit("disconnected", self)
