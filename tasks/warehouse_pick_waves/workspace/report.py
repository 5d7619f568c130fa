"""Summary printed on the wave's cover sheet."""
from staffing import assign
from waves import PickWave


def units_per_zone(wave: PickWave) -> dict[str, int]:
    return {z: sum(l.quantity for l in wave.lines_by_zone[z]) for z in wave.zones}


def cover_sheet(wave: PickWave) -> str:
    units = units_per_zone(wave)
    rows = [f"Wave {wave.wave_id}: {len(wave.orders)} orders, {sum(units.values())} units"]
    rows += [f"  zone {z}: {units[z]} units" for z in wave.busy_zones()]
    return "\n".join(rows)


def staffing_plan(wave: PickWave, pickers: list[str]) -> list[str]:
    plan = assign(units_per_zone(wave), pickers)
    return [f"zone {z}: {', '.join(names)}" for z, names in plan.items()]
