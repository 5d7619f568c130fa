from dataclasses import dataclass, field


class AppealError(Exception):
    pass


@dataclass
class Appeal:
    appeal_id: int
    channel: str
    user: str
    message: str
    status: str = "open"
    notes: list = field(default_factory=list)


class AppealDesk:
    def __init__(self, server):
        self.server = server
        self.appeals = {}
        self._next = 1

    def file(self, channel, user, message):
        ch = self.server.channels[channel]
        if user not in ch.banned and user not in ch.muted_until:
            raise AppealError(f"{user} has nothing to appeal in {channel}")
        if any(a.user == user and a.channel == channel and a.status == "open" for a in self.appeals.values()):
            raise AppealError(f"{user} already has an open appeal in {channel}")
        appeal = Appeal(self._next, channel, user, message)
        self.appeals[appeal.appeal_id] = appeal
        self._next += 1
        return appeal.appeal_id

    def decide(self, appeal_id, accept, reviewer, note=""):
        appeal = self.appeals.get(appeal_id)
        if appeal is None or appeal.status != "open":
            raise AppealError(f"appeal {appeal_id} is not open")
        appeal.status = "accepted" if accept else "rejected"
        appeal.notes.append(f"{reviewer}: {note}".strip())
        if accept:
            ch = self.server.channels[appeal.channel]
            ch.banned.discard(appeal.user)
            ch.muted_until.pop(appeal.user, None)
            ch.moderator.forgive(appeal.user)
        return appeal.status

    def open_appeals(self):
        return sorted(a.appeal_id for a in self.appeals.values() if a.status == "open")
