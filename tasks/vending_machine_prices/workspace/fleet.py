from decimal import Decimal

from machine import Machine
from pricing import clear_override, overrides_for, set_override


class Operator:
    def __init__(self):
        self.machines = {}

    def install(self, machine_id, region, stock):
        self.machines[machine_id] = Machine(machine_id, region, stock)
        return self.machines[machine_id]

    def promote(self, machine_id, code, price):
        set_override(machine_id, code, price)

    def end_promotion(self, machine_id, code):
        clear_override(machine_id, code)

    def price_board(self, code):
        return {mid: str(m.price(code)) for mid, m in sorted(self.machines.items()) if code in m.stock}

    def restock_list(self, minimum=2):
        out = []
        for mid, m in sorted(self.machines.items()):
            for code, count in sorted(m.stock.items()):
                if count < minimum:
                    out.append((mid, code, minimum - count))
        return out

    def daily_report(self):
        total = sum((m.takings() for m in self.machines.values()), Decimal(0))
        return {
            "machines": len(self.machines),
            "sales": sum(len(m.sales) for m in self.machines.values()),
            "takings": str(total),
            "promotions": {mid: {c: str(p) for c, p in overrides_for(mid).items()} for mid in sorted(self.machines)
                           if overrides_for(mid)},
        }
