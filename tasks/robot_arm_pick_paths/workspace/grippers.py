"""End-of-arm tools: the tool centre point offset and the payload each gripper may carry."""
from dataclasses import dataclass

from geometry import Point


class PayloadTooHeavy(ValueError):
    pass


@dataclass(frozen=True)
class Gripper:
    name: str
    tcp_offset_z: float
    max_payload_g: int
    close_s: float

    def flange_for(self, tcp_point):
        """Where the flange must be so that the gripper's tool centre point lands on `tcp_point`."""
        return Point(tcp_point.x, tcp_point.y, tcp_point.z + self.tcp_offset_z)

    def check_payload(self, grams):
        if grams > self.max_payload_g:
            raise PayloadTooHeavy(f"{self.name}: {grams} g over the {self.max_payload_g} g limit")


GRIPPERS = {
    g.name: g
    for g in (
        Gripper("two-finger", tcp_offset_z=120.0, max_payload_g=2000, close_s=0.4),
        Gripper("vacuum", tcp_offset_z=90.0, max_payload_g=800, close_s=0.2),
    )
}
