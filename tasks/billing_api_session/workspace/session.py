"""Login state for the billing API: a bearer token and the customer account being worked on."""


class NoAccountSelected(RuntimeError):
    pass


class ApiSession:
    def __init__(self, login):
        """`login()` returns a fresh bearer token; it is slow and rate limited upstream."""
        self._login = login
        self._token = None
        self.account_id = None
        self.logins = 0

    @property
    def token(self):
        if self._token is None:
            self._token = self._login()
            self.logins += 1
        return self._token

    def drop_token(self):
        """Forget the token so the next request logs in again (e.g. after it expired)."""
        self._token = None

    def use_account(self, account_id):
        if not account_id:
            raise ValueError("account_id must be non-empty")
        self.account_id = account_id

    def require_account(self):
        if self.account_id is None:
            raise NoAccountSelected("call use_account() before account-scoped requests")
        return self.account_id

    def reset(self):
        """Log out: forget the token and the selected account."""
        self._token = None
        self.account_id = None
