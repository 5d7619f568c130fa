"""stepflow: run a job through a list of steps with plugins around it.

A plugin may define any of before_job(job), after_job(job, result) and
job_failed(job, error). after_job runs only when every step succeeded;
job_failed runs instead when a step raised.
"""
from .runner import JobFailed, Runner, Step

__all__ = ["JobFailed", "Runner", "Step"]
__version__ = "1.4.0"
