"""Write-through cache of the last route sent to each driver.

Plans are kept in memory and mirrored to one JSON file per driver, so a restarted dispatcher knows what every driver
already has on their handset.
"""
import json
from pathlib import Path


class PlanCache:
    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._plans = {}

    def _path(self, driver: str) -> Path:
        return self.directory / f"{driver}.json"

    def put(self, driver: str, depot, stops) -> None:
        plan = {"driver": driver, "depot": depot, "stops": list(stops)}
        self._plans[driver] = plan
        self._path(driver).write_text(json.dumps(plan))

    def get(self, driver: str):
        if driver not in self._plans:
            path = self._path(driver)
            if not path.exists():
                return None
            plan = json.loads(path.read_text())
            # JSON has no tuples: stops come back as lists and would never compare equal to routed tuples.
            plan["depot"] = tuple(plan["depot"])
            plan["stops"] = [tuple(s) for s in plan["stops"]]
            self._plans[driver] = plan
        return self._plans[driver]

    def drivers(self):
        on_disk = {p.stem for p in self.directory.glob("*.json")}
        return sorted(on_disk | set(self._plans))
