"""Alcohol duty on packaged beer: pence per litre of pure alcohol, by strength band."""
from decimal import ROUND_HALF_UP, Decimal

BANDS = [(Decimal("3.4"), Decimal("0.0")), (Decimal("8.4"), Decimal("21.01")), (None, Decimal("28.50"))]
SMALL_PRODUCER_RELIEF = Decimal("0.5")


def rate_for(abv):
    abv = Decimal(str(abv))
    for ceiling, rate in BANDS:
        if ceiling is None or abv <= ceiling:
            return rate
    raise ValueError(abv)


def duty_pounds(litres, abv, small_producer=True):
    pure = Decimal(str(litres)) * Decimal(str(abv)) / 100
    duty = pure * rate_for(abv)
    if small_producer:
        duty *= SMALL_PRODUCER_RELIEF
    return duty.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def monthly_return(ledger, small_producer=True):
    total = Decimal(0)
    lines = []
    for batch in sorted(ledger.batches.values(), key=lambda b: b.batch_id):
        if batch.packaged_litres is None:
            continue
        d = duty_pounds(batch.packaged_litres, batch.measured_abv(), small_producer)
        lines.append(f"{batch.batch_id} {batch.recipe_name} {batch.packaged_litres:g} l {batch.measured_abv()}% £{d}")
        total += d
    lines.append(f"total £{total}")
    return lines
