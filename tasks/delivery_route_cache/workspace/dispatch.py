"""Sends drivers their routes and tells them only what changed since the last send."""
from dataclasses import dataclass, field

from plan_cache import PlanCache
from routing import order_stops, route_length_km


@dataclass
class RouteUpdate:
    driver: str
    added: list = field(default_factory=list)
    removed: list = field(default_factory=list)
    length_km: float = 0.0

    @property
    def unchanged(self) -> bool:
        return not self.added and not self.removed


class Dispatcher:
    def __init__(self, cache: PlanCache):
        self.cache = cache
        self.outbox = []

    def assign(self, driver: str, depot, stops) -> RouteUpdate:
        ordered = order_stops(depot, stops)
        previous = self.cache.get(driver)
        old_stops = previous["stops"] if previous else []
        update = RouteUpdate(
            driver=driver,
            added=[s for s in ordered if s not in old_stops],
            removed=[s for s in old_stops if s not in ordered],
            length_km=round(route_length_km(depot, ordered), 2),
        )
        if not update.unchanged:
            self.outbox.append(update)
        self.cache.put(driver, depot, ordered)
        return update
