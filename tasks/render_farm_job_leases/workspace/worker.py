"""A render worker: claims one job at a time, heartbeats while rendering, reports the frame."""
from leases import LeaseLost


class Worker:
    def __init__(self, name, queue, render):
        self.name = name
        self._queue = queue
        self._render = render
        self.current = None
        self.lost = []

    def start(self):
        """Claim a job; return its id, or None when there is nothing to do."""
        claimed = self._queue.claim(self.name)
        if claimed is None:
            return None
        self.current = claimed
        return claimed[0]

    def _drop(self):
        self.lost.append(self.current[0])
        self.current = None

    def tick(self):
        """Heartbeat for the current job; a lost lease means someone else owns the job now."""
        if self.current is None:
            return
        try:
            self._queue.heartbeat(self.current[2])
        except LeaseLost:
            self._drop()

    def finish(self):
        if self.current is None:
            return
        job_id, payload, token = self.current
        try:
            self._queue.complete(token, self._render(payload))
        except LeaseLost:
            self._drop()
            return
        self.current = None

    def stop(self):
        if self.current is not None:
            self._queue.abandon(self.current[2])
            self.current = None
