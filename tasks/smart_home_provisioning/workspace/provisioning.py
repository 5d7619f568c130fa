"""First-connection provisioning: push config, sync the clock, check firmware.

The hub registers these steps when a device is paired. They must run once,
on the device's first connection, before it starts reporting.
"""
from devices import Device

LATEST_FIRMWARE = "1.2.0"


class Provisioner:
    def __init__(self, site_config: dict, hub_time: float):
        self.site_config = site_config
        self.hub_time = hub_time
        self.log: list[str] = []
        self.update_queue: list[str] = []

    def pair(self, device: Device) -> None:
        device.events.once("connected", self._push_config)
        device.events.once("connected", self._sync_clock)
        device.events.once("connected", self._check_firmware)
        device.events.on("connected", lambda d: self.log.append(f"{d.device_id} online"))
        device.events.on("disconnected", lambda d: self.log.append(f"{d.device_id} offline"))

    def _push_config(self, device: Device) -> None:
        device.config = dict(self.site_config.get(device.kind, {}))
        self.log.append(f"{device.device_id} configured")

    def _sync_clock(self, device: Device) -> None:
        device.clock_offset_s = 0.0
        self.log.append(f"{device.device_id} clock synced to {self.hub_time}")

    def _check_firmware(self, device: Device) -> None:
        if device.firmware != LATEST_FIRMWARE:
            self.update_queue.append(device.device_id)
