"""Per-client rate limiter with checkpoints, so a redeploy does not hand every client a fresh allowance."""
import pickle
from pathlib import Path

from bucket import BurstBucket, TokenBucket

PLANS = {
    "free": {"capacity": 5, "refill_per_sec": 0.5},
    "pro": {"capacity": 50, "refill_per_sec": 10.0, "burst": 20},
}


def new_bucket(plan: str, now: float) -> TokenBucket:
    spec = PLANS[plan]
    if "burst" in spec:
        return BurstBucket(spec["capacity"], spec["refill_per_sec"], spec["burst"], now)
    return TokenBucket(spec["capacity"], spec["refill_per_sec"], now)


class RateLimiter:
    def __init__(self, plans_by_client: dict):
        self.plans_by_client = dict(plans_by_client)
        self.buckets = {}

    def allow(self, client: str, now: float) -> bool:
        bucket = self.buckets.get(client)
        if bucket is None:
            bucket = self.buckets[client] = new_bucket(self.plans_by_client.get(client, "free"), now)
        return bucket.take(now)

    def checkpoint(self, path: Path) -> None:
        Path(path).write_bytes(pickle.dumps({"plans": self.plans_by_client, "buckets": self.buckets}))

    @classmethod
    def restore(cls, path: Path) -> "RateLimiter":
        saved = pickle.loads(Path(path).read_bytes())
        limiter = cls(saved["plans"])
        limiter.buckets = saved["buckets"]
        return limiter
