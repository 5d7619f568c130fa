from artifacts import ArtifactCache, ArtifactCorrupt, ArtifactTooLarge
from keys import cache_key, restore_keys


class JobRunner:
    """Runs a CI job's cache steps: restore before, save after."""

    def __init__(self, cache: ArtifactCache, pipeline):
        self.cache = cache
        self.pipeline = pipeline
        self.events = []

    def restore(self, job, platform="linux-x64"):
        key, data = self.cache.restore(restore_keys(self.pipeline, job, platform))
        self.events.append(("restore", job, key))
        return data

    def save(self, job, lockfile, data, platform="linux-x64", expected=None):
        key = cache_key(self.pipeline, job, lockfile, platform)
        try:
            self.cache.publish(key, data, expected)
        except (ArtifactCorrupt, ArtifactTooLarge) as exc:
            self.events.append(("save-failed", job, type(exc).__name__))
            return None
        self.events.append(("save", job, key))
        return key

    def save_log(self, job, lines):
        try:
            artifact = self.cache.publish_log(f"{self.pipeline}/{job}/logs", lines)
        except ArtifactCorrupt:
            self.events.append(("log-failed", job, None))
            return None
        return artifact.key
