"""Chart values per environment: the chart's defaults, then the environment's overlay, then the region's."""
from dataclasses import dataclass, field

from vendor.overlaykit import get_path, merge_into

from checks import check_values


@dataclass
class Chart:
    name: str
    defaults: dict
    overlays: dict = field(default_factory=dict)
    regions: dict = field(default_factory=dict)

    def environments(self):
        return sorted(self.overlays)


class ValuesResolver:
    def __init__(self, chart, list_strategy="replace"):
        self.chart = chart
        self.list_strategy = list_strategy
        self.rendered = []

    def values_for(self, env, region=None):
        if env not in self.chart.overlays:
            raise KeyError(f"{self.chart.name} has no environment {env!r}")
        values = dict(self.chart.defaults)
        merge_into(values, self.chart.overlays[env], lists=self.list_strategy)
        if region is not None:
            merge_into(values, self.chart.regions.get(region, {}), lists=self.list_strategy)
        values.setdefault("labels", {})
        values["labels"] = {**values["labels"], "env": env, **({"region": region} if region else {})}
        check_values(values)
        self.rendered.append((env, region))
        return values

    def lookup(self, env, path, region=None):
        return get_path(self.values_for(env, region), path)
