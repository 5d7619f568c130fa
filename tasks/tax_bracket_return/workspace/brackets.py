from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")

# (upper bound of the bracket or None, marginal rate)
BRACKETS = {
    "single": ((Decimal("11000"), Decimal("0.10")), (Decimal("44725"), Decimal("0.12")),
               (Decimal("95375"), Decimal("0.22")), (None, Decimal("0.24"))),
    "joint": ((Decimal("22000"), Decimal("0.10")), (Decimal("89450"), Decimal("0.12")),
              (Decimal("190750"), Decimal("0.22")), (None, Decimal("0.24"))),
}
STANDARD_DEDUCTION = {"single": Decimal("13850"), "joint": Decimal("27700")}


class TaxError(ValueError):
    pass


def money(value):
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def tax_on(taxable, status):
    if status not in BRACKETS:
        raise TaxError(f"unknown filing status {status!r}")
    taxable = Decimal(taxable)
    if taxable <= 0:
        return money(0)
    tax = Decimal(0)
    lower = Decimal(0)
    for upper, rate in BRACKETS[status]:
        top = taxable if upper is None else min(taxable, upper)
        if top > lower:
            tax += (top - lower) * rate
        if upper is None or taxable <= upper:
            break
        lower = upper
    return money(tax)


def marginal_rate(taxable, status):
    taxable = Decimal(taxable)
    for upper, rate in BRACKETS[status]:
        if upper is None or taxable <= upper:
            return rate
    raise TaxError("no bracket")


def effective_rate(tax, income):
    if income <= 0:
        return Decimal(0)
    return (Decimal(tax) / Decimal(income) * 100).quantize(CENT, rounding=ROUND_HALF_UP)


def breakdown(taxable, status):
    rows = []
    lower = Decimal(0)
    taxable = Decimal(taxable)
    for upper, rate in BRACKETS[status]:
        top = taxable if upper is None else min(taxable, upper)
        if top <= lower:
            break
        rows.append((f"{rate * 100:.0f}%", money((top - lower) * rate)))
        if upper is None:
            break
        lower = upper
    return rows
