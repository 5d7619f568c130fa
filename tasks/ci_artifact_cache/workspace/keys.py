import hashlib
import re

_SAFE = re.compile(r"^[A-Za-z0-9._/-]+$")


class KeyError_(ValueError):
    pass


def cache_key(pipeline, job, lockfile_text, platform="linux-x64"):
    if not _SAFE.match(pipeline) or not _SAFE.match(job):
        raise KeyError_(f"unsafe pipeline or job name: {pipeline!r} {job!r}")
    lock_hash = hashlib.sha256(lockfile_text.encode()).hexdigest()[:16]
    return f"{pipeline}/{job}/{platform}/{lock_hash}"


def restore_keys(pipeline, job, platform="linux-x64"):
    """Fallback prefixes, most specific first."""
    return [f"{pipeline}/{job}/{platform}/", f"{pipeline}/{job}/"]


def matches(key, prefix):
    return key.startswith(prefix)


def describe(key):
    parts = key.split("/")
    if len(parts) != 4:
        raise KeyError_(f"not a cache key: {key!r}")
    pipeline, job, platform, lock_hash = parts
    return {"pipeline": pipeline, "job": job, "platform": platform, "lock": lock_hash}
