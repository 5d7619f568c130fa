"""The account service: a few handlers, a worker pool that runs requests and scheduled jobs."""
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import context
import middleware
from audit import AuditLog
from middleware import Forbidden


@dataclass
class Request:
    path: str
    request_id: str
    headers: dict = field(default_factory=dict)
    body: dict = field(default_factory=dict)


class AccountService:
    def __init__(self, workers=1):
        self.audit = AuditLog()
        self.accounts = {"acct-1": {"owner": "bob", "email": "bob@example.com"}}
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="worker")
        self.routes = {"/email": self.change_email, "/close": self.close_account, "/whoami": self.whoami}

    def submit(self, request):
        handler = self.routes[request.path]
        return self.pool.submit(middleware.handle, request, handler)

    def call(self, request):
        return self.submit(request).result(timeout=5)

    def run_job(self, job, *args):
        """Scheduled jobs run on the same workers as requests, outside any request."""
        return self.pool.submit(job, self, *args).result(timeout=5)

    def shutdown(self):
        self.pool.shutdown(wait=True)

    def whoami(self, request):
        return {"user": context.get("user"), "on_behalf_of": context.get("on_behalf_of")}

    def change_email(self, request):
        account = self.accounts[request.body["account"]]
        email = request.body.get("email", "")
        if "@" not in email:
            raise ValueError(f"not an email address: {email!r}")
        self.audit.record("change_email", request.body["account"])
        account["email"] = email
        return {"ok": True}

    def close_account(self, request):
        account_id = request.body["account"]
        self.audit.record("close_attempt", account_id)
        if "admin" not in context.get("roles", []):
            raise Forbidden("only admins close accounts")
        self.accounts.pop(account_id)
        self.audit.record("close", account_id)
        return {"closed": account_id}

