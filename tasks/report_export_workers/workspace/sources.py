"""Where report sections come from: each section is a query against the warehouse (simulated here)."""
import time


class SectionFailed(Exception):
    pass


SECTIONS = {
    "revenue": [("2026-09", 120_400), ("2026-10", 131_900), ("2026-11", 128_300)],
    "refunds": [("2026-09", 2_100), ("2026-10", 1_700), ("2026-11", 2_950)],
    "signups": [("2026-09", 410), ("2026-10", 455), ("2026-11", 502)],
    "churn": [("2026-09", 31), ("2026-10", 29), ("2026-11", 35)],
}


class Warehouse:
    def __init__(self, delay=0.01, failing=()):
        self.delay = delay
        self.failing = set(failing)
        self.queries = []

    def query(self, section):
        time.sleep(self.delay)
        self.queries.append(section)
        if section in self.failing:
            self.failing.discard(section)
            raise SectionFailed(f"{section}: warehouse query timed out")
        if section not in SECTIONS:
            raise KeyError(section)
        return list(SECTIONS[section])
