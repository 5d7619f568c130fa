"""A boat trip: each diver gets a kit, the plan is briefed, the dive is logged."""
from dataclasses import dataclass, field

from dives import UnsafePlan, gas_needed_bar


@dataclass
class TripLog:
    dived: list = field(default_factory=list)
    aborted: dict = field(default_factory=dict)


def run_trip(locker, day, plan, divers, tank_bar=200):
    """divers: {name: sizes}. A diver whose plan fails the briefing does not dive."""
    log = TripLog()
    for name, sizes in divers.items():
        try:
            with locker.kit(name, day, sizes) as kit:
                plan.check()
                if gas_needed_bar(plan) > tank_bar:
                    raise UnsafePlan(f"{name}: not enough gas in {kit['tank'].tag}")
                log.dived.append(name)
        except UnsafePlan as exc:
            log.aborted[name] = str(exc)
    return log


def summary(log):
    return f"{len(log.dived)} dived, {len(log.aborted)} stayed on the boat"
