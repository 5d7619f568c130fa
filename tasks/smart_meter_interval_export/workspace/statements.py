"""The customer's statement: energy by band, standing charge and VAT."""
from billing import bill

STANDING_PENCE_PER_DAY = 53.0
VAT_PERCENT = 5


def statement(meter, readings, days):
    charges = bill(meter, readings)
    energy = charges["total_pence"]
    standing = round(STANDING_PENCE_PER_DAY * days, 2)
    net = round(energy + standing, 2)
    vat = round(net * VAT_PERCENT / 100, 2)
    lines = [f"Meter {meter.meter_id} ({meter.tariff})"]
    for band, kwh in charges["kwh"].items():
        lines.append(f"  {band:<8}{kwh:>8.3f} kWh {charges['pence'][band] / 100:>8.2f}")
    lines.append(f"  standing charge {days} days {standing / 100:>8.2f}")
    lines.append(f"  VAT {VAT_PERCENT}% {vat / 100:>8.2f}")
    lines.append(f"  total {(net + vat) / 100:>8.2f}")
    return lines


def total_due_pence(meter, readings, days):
    charges = bill(meter, readings)
    net = charges["total_pence"] + STANDING_PENCE_PER_DAY * days
    return round(net * (100 + VAT_PERCENT) / 100, 2)
