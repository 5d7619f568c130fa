"""Wiring for the loyalty-points service."""
from database import PointsDatabase
from shutdown import ShutdownManager
from writecache import WriteBehindCache


class LoyaltyService:
    def __init__(self, batch_size=50):
        self.shutdown = ShutdownManager()

        self.database = PointsDatabase()
        self.shutdown.on_shutdown("database", self.database.close)

        self.balances = WriteBehindCache(self.database, batch_size)
        self.shutdown.on_shutdown("balance cache", self.balances.flush)

        self.awarded_today = 0
        self.shutdown.on_shutdown("daily totals", self._save_daily_totals)

    def award(self, member, points):
        if points <= 0:
            raise ValueError(f"points must be positive, got {points}")
        self.balances.set(member, self.balances.get(member) + points)
        self.awarded_today += points

    def balance(self, member):
        return self.balances.get(member)

    def _save_daily_totals(self):
        self.balances.set("__awarded_today__", self.awarded_today)
