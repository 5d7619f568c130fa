"""Dive plans and the no-decompression limits the briefing checks against."""
from dataclasses import dataclass

NDL_MINUTES = {12: 147, 15: 72, 18: 56, 21: 37, 24: 29, 27: 20, 30: 16, 33: 14, 36: 12, 39: 10}


class UnsafePlan(ValueError):
    pass


@dataclass(frozen=True)
class DivePlan:
    site: str
    depth_m: int
    bottom_minutes: int

    def limit(self):
        for depth in sorted(NDL_MINUTES):
            if self.depth_m <= depth:
                return NDL_MINUTES[depth]
        raise UnsafePlan(f"{self.site}: {self.depth_m} m is beyond recreational limits")

    def check(self):
        if self.bottom_minutes > self.limit():
            raise UnsafePlan(f"{self.site}: {self.bottom_minutes} min at {self.depth_m} m exceeds {self.limit()} min")
        return True


def gas_needed_bar(plan, sac_litres_min=20, tank_litres=12):
    """Bar of a tank used for the bottom time at depth, plus a third in reserve."""
    ambient = 1 + plan.depth_m / 10
    litres = sac_litres_min * ambient * plan.bottom_minutes
    return round(litres / tank_litres * 1.5)
