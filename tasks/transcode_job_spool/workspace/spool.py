"""The job spool: a JSON-lines file the API appends to and the transcode workers drain, highest priority first."""
from pathlib import Path

from jobs import TranscodeJob
from vendor.tagcodec import dumps, loads


class Spool:
    def __init__(self, path):
        self.path = Path(path)

    def put(self, job):
        if not isinstance(job, TranscodeJob):
            raise TypeError("only transcode jobs can be spooled")
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(dumps(job, sort_keys=True) + "\n")

    def _read(self):
        if not self.path.exists():
            return []
        return [loads(line) for line in self.path.read_text(encoding="utf-8").splitlines() if line.strip()]

    def drain(self):
        """Every spooled job, highest priority first (ties in arrival order), leaving the spool empty."""
        jobs = self._read()
        self.path.write_text("", encoding="utf-8")
        return sorted(jobs, key=lambda job: -job.priority)

    def __len__(self):
        return len(self._read())


def requeue(spool, jobs, bump=1):
    """Put failed jobs back with their priority raised, so a retry does not wait behind new uploads."""
    for job in jobs:
        spool.put(TranscodeJob(job.job_id, job.source, job.renditions, job.audio, min(9, job.priority + bump)))
    return len(jobs)
