"""Turn a plan's litres into valve run times that the pump can supply."""
import math


def run_minutes(litres, flow_lpm):
    return math.ceil(litres / flow_lpm) if litres > 0 else 0


def day_program(farm, plan, date, start_minute=5 * 60):
    """Valve runs for one day as (zone, start, minutes), packed so total flow never exceeds the pump."""
    runs = []
    for zone in farm.zones:
        minutes = run_minutes(plan.litres(zone.name, date), zone.flow_lpm)
        if minutes:
            runs.append((zone, minutes))
    runs.sort(key=lambda r: (-r[1], r[0].name))
    lanes = []  # each lane: [free_at_minute, flow in use]
    program = []
    for zone, minutes in runs:
        if zone.flow_lpm > farm.pump_lpm:
            raise ValueError(f"zone {zone.name} needs {zone.flow_lpm} l/min; pump gives {farm.pump_lpm}")
        start = start_minute
        while True:
            in_use = sum(z.flow_lpm for z, s, m in program if s <= start < s + m)
            if in_use + zone.flow_lpm <= farm.pump_lpm:
                break
            start = min(s + m for z, s, m in program if s <= start < s + m)
        program.append((zone, start, minutes))
    return [(z.name, f"{s // 60:02d}:{s % 60:02d}", m) for z, s, m in sorted(program, key=lambda p: (p[1], p[0].name))]
