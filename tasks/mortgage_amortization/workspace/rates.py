"""Interest-rate conversions. Rates are Decimals; an APR of 6.5% is Decimal("6.5")."""

from decimal import Decimal


def monthly_rate(apr_percent):
    apr = Decimal(str(apr_percent))
    if apr < 0 or apr > 100:
        raise ValueError(f"APR {apr}% is out of range")
    return apr / Decimal(100) / Decimal(12)


def effective_annual_percent(apr_percent, places=3):
    """The APR compounded monthly, as shown on the disclosure: (1 + APR/12)^12 - 1."""
    growth = (1 + monthly_rate(apr_percent)) ** 12 - 1
    return (growth * 100).quantize(Decimal(1).scaleb(-places))


def level_payment_cents(principal_cents, apr_percent, months):
    """The standard annuity payment P*r / (1 - (1+r)^-n), rounded up to the cent so the loan is repaid."""
    if months < 1:
        raise ValueError("term must be at least one month")
    r = monthly_rate(apr_percent)
    if r == 0:
        payment = Decimal(principal_cents) / months
    else:
        payment = Decimal(principal_cents) * r / (1 - (1 + r) ** -months)
    return int(payment.to_integral_value(rounding="ROUND_CEILING"))
