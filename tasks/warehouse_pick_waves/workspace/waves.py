"""Group a batch of orders into one pick wave, one list per zone."""
from layout import ZONES, OrderLine, walk_key, zone_of


class PickWave:
    def __init__(self, wave_id: str, zones: tuple[str, ...] = ZONES):
        self.wave_id = wave_id
        self.zones = zones
        self.lines_by_zone: dict[str, list[OrderLine]] = dict.fromkeys(zones, [])
        self.orders: set[str] = set()

    def add(self, line: OrderLine) -> None:
        if line.quantity <= 0:
            raise ValueError(f"line for {line.sku} has quantity {line.quantity}")
        self.lines_by_zone[zone_of(line.location)].append(line)
        self.orders.add(line.order_id)

    def pick_list(self, zone: str) -> list[OrderLine]:
        """Lines a picker in `zone` collects, in walking order."""
        return sorted(self.lines_by_zone[zone], key=lambda l: walk_key(l.location))

    def busy_zones(self) -> list[str]:
        return [z for z in self.zones if self.lines_by_zone[z]]


def build_wave(wave_id: str, lines: list[OrderLine]) -> PickWave:
    wave = PickWave(wave_id)
    for line in lines:
        wave.add(line)
    return wave
