"""Model portfolios: the share of the account each symbol should hold."""
from decimal import Decimal

MODELS = {
    "balanced": {"VTI": Decimal("0.40"), "VXUS": Decimal("0.20"), "BND": Decimal("0.30"), "VNQ": Decimal("0.10")},
    "growth": {"VTI": Decimal("0.60"), "VXUS": Decimal("0.30"), "BND": Decimal("0.10")},
    "income": {"BND": Decimal("0.60"), "VTI": Decimal("0.25"), "VNQ": Decimal("0.15")},
}


class ModelError(ValueError):
    pass


def model(name):
    try:
        weights = MODELS[name]
    except KeyError:
        raise ModelError(f"unknown model {name!r}") from None
    check(weights)
    return dict(weights)


def check(weights):
    if any(w < 0 for w in weights.values()):
        raise ModelError("weights must not be negative")
    if sum(weights.values()) != 1:
        raise ModelError(f"weights sum to {sum(weights.values())}, not 1")
    return weights
