"""Scheduled jobs. They run on the service's worker pool between requests, as the system user."""
import context


def nightly_cleanup(service):
    """Drop accounts without an email address."""
    removed = [acct for acct, data in service.accounts.items() if not data.get("email")]
    for acct in removed:
        service.accounts.pop(acct)
        service.audit.record("cleanup", acct)
    return removed


def stale_email_report(service, retired_domain):
    """Accounts whose email is on a domain we no longer accept mail for."""
    stale = sorted(acct for acct, data in service.accounts.items() if data.get("email", "").endswith("@" + retired_domain))
    if stale:
        service.audit.record("stale_email_report", ",".join(stale))
    return stale


def whoami_job(service):
    return context.get("user", "system")


class Scheduler:
    """Runs each registered job when `every_hours` have passed since it last ran (first run at start)."""

    def __init__(self, service):
        self.service = service
        self.jobs = {}
        self.last_run = {}

    def every(self, name, every_hours, job, *args):
        if every_hours <= 0:
            raise ValueError("every_hours must be positive")
        self.jobs[name] = (every_hours, job, args)

    def due(self, now_hours):
        return sorted(name for name, (every, _, _) in self.jobs.items() if name not in self.last_run or now_hours - self.last_run[name] >= every)

    def run_due(self, now_hours):
        results = {}
        for name in self.due(now_hours):
            _, job, args = self.jobs[name]
            results[name] = self.service.run_job(job, *args)
            self.last_run[name] = now_hours
        return results
