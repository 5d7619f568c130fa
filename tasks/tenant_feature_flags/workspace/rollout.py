"""Rollout reports: which tenants a release will switch a feature on for."""
from feature_flags import FeatureFlags


def enabled_tenants(flags: FeatureFlags, tenants: list[str], flag: str) -> list[str]:
    return [t for t in tenants if flags.is_enabled(t, flag)]


def rollout_share(flags: FeatureFlags, tenants: list[str], flag: str) -> float:
    if not tenants:
        return 0.0
    return len(enabled_tenants(flags, tenants, flag)) / len(tenants)
