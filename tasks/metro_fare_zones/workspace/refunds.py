"""Refunds: a maximum fare charged for a missing tap-out is cut back to the real fare once the
passenger tells us where they left, and delayed journeys earn a partial refund."""
from dataclasses import replace

from fares import fare

DELAY_REFUND_PERCENT = {15: 25, 30: 50, 60: 100}


def correct_incomplete(journey, destination, weekday=True):
    """The journey with its real destination and fare, and the pence to refund."""
    if not journey.incomplete:
        raise ValueError("journey already has a tap out")
    real = fare(journey.origin, destination, journey.start, weekday)
    fixed = replace(journey, destination=destination, pence=real, incomplete=False)
    return fixed, journey.pence - real


def delay_refund(journey, delay_minutes):
    percent = 0
    for threshold, pct in sorted(DELAY_REFUND_PERCENT.items()):
        if delay_minutes >= threshold:
            percent = pct
    return journey.pence * percent // 100
