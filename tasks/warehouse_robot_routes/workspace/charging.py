import threading


class ChargerBank:
    """Docks where robots recharge between missions."""

    def __init__(self, docks, rate_pct_per_min=2.5):
        self.docks = list(docks)
        self.rate = rate_pct_per_min
        self._free = list(docks)
        self._lock = threading.Lock()
        self.sessions = []

    def plug_in(self, robot):
        with self._lock:
            if not self._free:
                return None
            dock = self._free.pop(0)
        self.sessions.append((robot.name, dock))
        return dock

    def charge(self, robot, dock, minutes):
        if dock not in self.docks:
            raise ValueError(f"unknown dock {dock}")
        robot.battery_pct = min(100.0, round(robot.battery_pct + self.rate * minutes, 2))
        return robot.battery_pct

    def unplug(self, dock):
        with self._lock:
            if dock in self._free:
                raise ValueError(f"dock {dock} is already free")
            self._free.append(dock)
            self._free.sort()

    def free(self):
        with self._lock:
            return list(self._free)


def minutes_to_full(robot, rate_pct_per_min=2.5):
    missing = 100.0 - robot.battery_pct
    return 0 if missing <= 0 else int(-(-missing // rate_pct_per_min))
