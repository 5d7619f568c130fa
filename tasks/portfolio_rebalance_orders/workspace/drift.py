"""How far an account has drifted from its model.

Weights are fractions of the account (0.25 is a quarter). The drift band is in percentage points: a symbol more than
DRIFT_BAND_POINTS points away from its target triggers a rebalance.
"""
from decimal import Decimal

from holdings import total_value

DRIFT_BAND_POINTS = Decimal("5")


def weights(holdings, cash=Decimal(0)):
    total = total_value(holdings)
    if total == 0:
        return {symbol: Decimal(0) for symbol in holdings}
    return {symbol: h.value / total for symbol, h in holdings.items()}


def drift(holdings, targets, cash=Decimal(0)):
    """Current weight minus target weight, per symbol of either the account or the model."""
    current = weights(holdings, cash)
    symbols = sorted(set(current) | set(targets))
    return {s: current.get(s, Decimal(0)) - targets.get(s, Decimal(0)) for s in symbols}


def out_of_band(holdings, targets, cash=Decimal(0), band=DRIFT_BAND_POINTS):
    """Symbols whose drift exceeds the band, largest drift first."""
    offs = drift(holdings, targets, cash)
    over = [s for s, d in offs.items() if abs(d) > band]
    return sorted(over, key=lambda s: (-abs(offs[s]), s))


def needs_rebalance(holdings, targets, cash=Decimal(0), band=DRIFT_BAND_POINTS):
    return bool(out_of_band(holdings, targets, cash, band))
