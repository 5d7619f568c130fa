"""Mirror selection and the errors a transport may raise."""


class TransientError(Exception):
    """Timeout, reset connection, 5xx: another attempt may work."""


class DownloadFailed(Exception):
    pass


class MirrorList:
    def __init__(self, hosts):
        if not hosts:
            raise ValueError("at least one mirror is required")
        self.hosts = list(hosts)

    def url_for(self, path, attempt):
        """Attempt 1 uses the first mirror, attempt 2 the second, and so on, wrapping around."""
        if not path.startswith("/"):
            raise ValueError(f"path must be absolute: {path!r}")
        host = self.hosts[(attempt - 1) % len(self.hosts)]
        return f"https://{host}{path}"
