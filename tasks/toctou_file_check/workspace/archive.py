"""A write-once archive of generated reports.

Several report jobs (threads or processes) may publish into the same directory.
A report name is claimed by the first job to publish it; later attempts get
ReportExistsError and must pick another name.
"""
import os

from naming import report_path, temp_path, validate_name
from report_codec import GzipCodec


class ReportExistsError(FileExistsError):
    pass


class ReportArchive:
    def __init__(self, root, codec=None):
        self.root = root
        self.codec = codec if codec is not None else GzipCodec()
        os.makedirs(root, exist_ok=True)

    def exists(self, name):
        return os.path.exists(report_path(self.root, name))

    def publish(self, name, text):
        """Store `text` under `name`; never replaces a report that is already published."""
        final = report_path(self.root, name)
        if os.path.exists(final):
            raise ReportExistsError(f"report {name!r} is already published")

        blob = self.codec.encode(text)
        part = temp_path(self.root, name)
        with open(part, "wb") as fh:
            fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(part, final)
        return final

    def read(self, name):
        with open(report_path(self.root, name), "rb") as fh:
            return self.codec.decode(fh.read())

    def names(self):
        suffix = ".report.gz"
        return sorted(f[: -len(suffix)] for f in os.listdir(self.root) if f.endswith(suffix))

    def leftovers(self):
        """Temporary files that were never published (should be empty)."""
        return sorted(f for f in os.listdir(self.root) if f.endswith(".part"))


__all__ = ["ReportArchive", "ReportExistsError", "validate_name"]
