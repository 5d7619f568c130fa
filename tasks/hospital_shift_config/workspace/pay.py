"""Pay for a shift: base rate plus the ward's differentials."""
from decimal import ROUND_HALF_UP, Decimal

from roster import shifts


def shift_pay(values, shift, hourly, weekend=False):
    rate = Decimal(str(hourly))
    uplift = Decimal(0)
    pct = Decimal(values["differential_percent"]) / 100
    if shift.night and values["night_differential"]:
        uplift += pct
    if weekend and values["weekend_differential"]:
        uplift += pct
    total = rate * shift.hours * (1 + uplift)
    return total.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def daily_pay_bill(values, hourly, weekend=False):
    return sum((shift_pay(values, s, hourly, weekend) * s.nurses for s in shifts(values)), Decimal(0))
