"""Resolves the flags one tenant sees: defaults, then that tenant's overrides."""
from flag_source import FlagSource


class UnknownFlag(KeyError):
    pass


class FeatureFlags:
    def __init__(self, source: FlagSource):
        self.source = source

    def for_tenant(self, tenant: str) -> dict[str, bool]:
        # A copy: the source's defaults are cached and shared by every tenant.
        flags = dict(self.source.defaults())
        for name, value in self.source.overrides_for(tenant).items():
            if name not in flags:
                raise UnknownFlag(f"tenant {tenant!r} overrides unknown flag {name!r}")
            flags[name] = value
        return flags

    def is_enabled(self, tenant: str, flag: str) -> bool:
        flags = self.for_tenant(tenant)
        if flag not in flags:
            raise UnknownFlag(flag)
        return flags[flag]
