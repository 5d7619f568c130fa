from actions import Action, allow, escalate
from filters import find_terms, links, shouting

BASE_TERMS = {"scam", "idiot"}


class Moderator:
    blocked_terms = set(BASE_TERMS)
    strikes = {}
    allow_links = False

    def __init__(self, channel, extra_terms=(), allow_links=False, trusted=()):
        self.channel = channel
        self.blocked_terms.update(extra_terms)
        self.allow_links = allow_links
        self.trusted = set(trusted)
        self.decisions = []

    def _strike(self, user, reason):
        count = self.strikes.get(user, 0) + 1
        self.strikes[user] = count
        return escalate(user, count, reason)

    def review(self, user, text) -> Action:
        if user in self.trusted:
            action = allow(user)
        elif find_terms(text, self.blocked_terms):
            action = self._strike(user, "term:" + ",".join(find_terms(text, self.blocked_terms)))
        elif links(text) and not self.allow_links:
            action = self._strike(user, "link")
        elif shouting(text):
            action = Action("warn", user, None, "caps")
        else:
            action = allow(user)
        self.decisions.append(action)
        return action

    def forgive(self, user):
        self.strikes.pop(user, None)

    def summary(self):
        out = {}
        for a in self.decisions:
            out[a.kind] = out.get(a.kind, 0) + 1
        return dict(sorted(out.items()))
