"""Dispensing: stock on the shelf, repeats remaining, and the dispensing log."""
from dataclasses import dataclass, field


class CannotDispense(Exception):
    pass


@dataclass
class Pharmacy:
    stock: dict = field(default_factory=dict)
    repeats_used: dict = field(default_factory=dict)
    log: list = field(default_factory=list)

    def receive(self, drug, strength, units):
        key = (drug, strength)
        self.stock[key] = self.stock.get(key, 0) + units

    def dispense(self, rx, day):
        used = self.repeats_used.get(rx.rx_id, -1)
        if used >= rx.repeats:
            raise CannotDispense(f"{rx.rx_id}: no repeats left")
        key = (rx.drug, rx.strength)
        if self.stock.get(key, 0) < rx.quantity:
            raise CannotDispense(f"{rx.rx_id}: only {self.stock.get(key, 0)} of {rx.drug} {rx.strength} in stock")
        self.stock[key] -= rx.quantity
        self.repeats_used[rx.rx_id] = used + 1
        self.log.append((day, rx.rx_id, rx.quantity))
        return rx.repeats - (used + 1)

    def repeats_left(self, rx):
        return rx.repeats - self.repeats_used.get(rx.rx_id, -1)
