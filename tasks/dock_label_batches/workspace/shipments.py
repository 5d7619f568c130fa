"""Shipments arriving at the docks."""
import re
from dataclasses import dataclass

TRACKING = re.compile(r"^[A-Z]{2}\d{9}[A-Z]{2}$")
CARRIERS = ("dhl", "ups", "dpd", "post")


class ShipmentError(ValueError):
    pass


@dataclass(frozen=True)
class Shipment:
    tracking: str
    dock: int
    weight_g: int
    carrier: str


def check(shipment):
    if not TRACKING.match(shipment.tracking):
        raise ShipmentError(f"bad tracking number {shipment.tracking!r}")
    if shipment.carrier not in CARRIERS:
        raise ShipmentError(f"{shipment.tracking}: unknown carrier {shipment.carrier!r}")
    if not 0 < shipment.weight_g <= 31_500:
        raise ShipmentError(f"{shipment.tracking}: weight {shipment.weight_g} g is out of range")
    return shipment


def register(pool, shipments):
    with pool.connection() as conn:
        conn.executemany(
            "INSERT INTO shipments (tracking, dock, weight_g, carrier) VALUES (?, ?, ?, ?)",
            [(s.tracking, s.dock, s.weight_g, s.carrier) for s in map(check, shipments)],
        )
        conn.commit()


def at_dock(pool, dock):
    with pool.connection() as conn:
        rows = conn.execute("SELECT tracking, dock, weight_g, carrier FROM shipments WHERE dock = ? ORDER BY tracking", (dock,))
        return [Shipment(*row) for row in rows]


def load_by_carrier(pool, dock):
    """Parcels and kilograms per carrier at one dock, for the pickup slots."""
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT carrier, COUNT(*), SUM(weight_g) FROM shipments WHERE dock = ? GROUP BY carrier ORDER BY carrier", (dock,)
        )
        return {carrier: (count, grams / 1000) for carrier, count, grams in rows}
