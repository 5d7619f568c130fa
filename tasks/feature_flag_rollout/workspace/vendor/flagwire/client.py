import logging

from .rules import rule_from_dict

log = logging.getLogger("flagwire")


class StaticTransport:
    """Serves a fixed ruleset; real deployments poll an HTTP endpoint."""

    def __init__(self, rules, salt=""):
        self.rules = rules
        self.salt = salt
        self.fetches = 0

    def fetch(self, api_key):
        self.fetches += 1
        return {"salt": self.salt, "rules": list(self.rules)}


class FlagClient:
    def __init__(self, api_key, transport):
        self.api_key = api_key
        self.transport = transport
        self._closed = False
        self._rules = {}
        self._salt = ""
        self.refresh()

    @property
    def closed(self):
        return self._closed

    def refresh(self):
        if self._closed:
            return False
        payload = self.transport.fetch(self.api_key)
        self._salt = payload.get("salt", "")
        self._rules = {d["key"]: rule_from_dict(d) for d in payload["rules"]}
        return True

    def is_enabled(self, key, user_id, attrs=None, default=False):
        if self._closed:
            log.debug("flagwire client closed; %s -> default", key)
            return default
        rule = self._rules.get(key)
        if rule is None:
            return default
        return rule.matches(user_id, attrs or {}, self._salt)

    def close(self):
        self._closed = True
        self._rules = {}

    def keys(self):
        return sorted(self._rules)

    def __repr__(self):
        state = "closed" if self._closed else f"{len(self._rules)} rules"
        return f"<FlagClient {self.api_key[:6]}… {state}>"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
