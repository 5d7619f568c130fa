"""Downloads files from a list of mirrors, retrying on transient errors."""
import logging

from checksums import Manifest
from limiter import ConcurrencyLimiter
from mirrors import DownloadFailed, TransientError

log = logging.getLogger(__name__)


class Downloader:
    def __init__(self, transport, mirrors, max_parallel=4, attempts=3, manifest=None):
        self._transport = transport
        self._mirrors = mirrors
        self._manifest = manifest or Manifest()
        self._attempts = attempts
        self.limiter = ConcurrencyLimiter(max_parallel)
        self.failures = []

    def fetch(self, path):
        self.limiter.acquire()
        try:
            return self._fetch_with_retries(path)
        finally:
            self.limiter.release()

    def _fetch_with_retries(self, path):
        last_error = None
        for attempt in range(1, self._attempts + 1):
            url = self._mirrors.url_for(path, attempt)
            try:
                return self._manifest.verify(path, self._transport.get(url))
            except TransientError as exc:
                log.info("attempt %d for %s failed: %s", attempt, url, exc)
                last_error = exc
        self._give_up(path, last_error)

    def _give_up(self, path, error):
        """Record the failure and raise; fetch() frees the limiter slot on the way out."""
        self.failures.append((path, repr(error)))
        raise DownloadFailed(f"{path}: all {self._attempts} attempts failed") from error
