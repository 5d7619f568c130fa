"""The render queue: jobs wait here until a worker leases them and reports a result."""


class JobQueue:
    def __init__(self, leases):
        self._leases = leases
        self._jobs = {}
        self.results = {}
        self.completions = []

    def submit(self, job_id, payload):
        if job_id in self._jobs:
            raise ValueError(f"job {job_id} was already submitted")
        self._jobs[job_id] = payload

    def claim(self, worker):
        """Lease the first unfinished job nobody holds; return (job_id, payload, token) or None."""
        for job_id, payload in self._jobs.items():
            if job_id in self.results:
                continue
            lease = self._leases.acquire(job_id, worker)
            if lease is not None:
                return job_id, payload, lease.token
        return None

    def heartbeat(self, token):
        self._leases.renew(token)

    def complete(self, token, result):
        lease = self._leases.check(token)
        self.results[lease.job_id] = result
        self.completions.append((lease.job_id, lease.worker))
        self._leases.release(token)

    def abandon(self, token):
        """Give a job back, e.g. when the worker is shutting down."""
        self._leases.release(token)
