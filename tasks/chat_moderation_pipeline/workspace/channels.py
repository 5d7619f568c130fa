from collections import deque

from moderation import Moderator


class Channel:
    def __init__(self, name, moderator: Moderator, slow_mode_s=0, history=50):
        self.name = name
        self.moderator = moderator
        self.slow_mode_s = slow_mode_s
        self.messages = deque(maxlen=history)
        self.muted_until = {}
        self.banned = set()
        self._last_post = {}

    def post(self, user, text, now):
        if user in self.banned:
            return "rejected:banned"
        if self.muted_until.get(user, 0) > now:
            return "rejected:muted"
        last = self._last_post.get(user)
        if self.slow_mode_s and last is not None and now - last < self.slow_mode_s:
            return "rejected:slow"
        action = self.moderator.review(user, text)
        self._last_post[user] = now
        if action.kind == "ban":
            self.banned.add(user)
            return "removed:ban"
        if action.kind == "mute":
            self.muted_until[user] = now + action.seconds
            return "removed:mute"
        if action.kind == "warn" and action.reason != "caps":
            return "removed:warn"
        self.messages.append((now, user, text))
        return "posted"

    def transcript(self):
        return [f"{user}: {text}" for _, user, text in self.messages]


class Server:
    def __init__(self):
        self.channels = {}

    def add_channel(self, name, extra_terms=(), allow_links=False, trusted=(), slow_mode_s=0):
        moderator = Moderator(name, extra_terms, allow_links, trusted)
        self.channels[name] = Channel(name, moderator, slow_mode_s)
        return self.channels[name]

    def post(self, channel, user, text, now):
        return self.channels[channel].post(user, text, now)
