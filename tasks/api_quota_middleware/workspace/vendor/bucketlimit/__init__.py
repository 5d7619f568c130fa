"""bucketlimit 2.3.0: token-bucket rate limiting with a keyed store of buckets."""
from .bucket import TokenBucket
from .store import BucketStore, RateLimited

__all__ = ["BucketStore", "RateLimited", "TokenBucket"]
__version__ = "2.3.0"
