"""Feeds gateway packets into the hub, keeping count of what could not be read."""
from sensors import parse_packet


class Ingest:
    def __init__(self, hub):
        self.hub = hub
        self.rejected = []

    def feed(self, packets):
        delivered = 0
        for packet in packets:
            if not packet.strip():
                continue
            try:
                readings = parse_packet(packet)
            except ValueError as exc:
                self.rejected.append((packet, str(exc)))
                continue
            for reading in readings:
                delivered += self.hub.publish(reading)
        return delivered
