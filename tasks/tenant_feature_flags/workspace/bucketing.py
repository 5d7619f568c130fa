"""Percentage rollouts: a flag on for a stable share of a tenant's users.

A user's bucket comes from a hash of the flag name and the user id, so the same user stays in or out as the share
grows, and different flags split users independently.
"""
import hashlib

BUCKETS = 10_000


class RolloutError(ValueError):
    pass


def bucket(flag, user_id):
    digest = hashlib.sha256(f"{flag}:{user_id}".encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") % BUCKETS


def in_rollout(flag, user_id, percent):
    if not 0 <= percent <= 100:
        raise RolloutError(f"rollout share {percent} is not a percentage")
    return bucket(flag, user_id) < percent * BUCKETS / 100


def share_in(flag, user_ids, percent):
    users = list(user_ids)
    if not users:
        return 0.0
    return sum(in_rollout(flag, u, percent) for u in users) / len(users)
