"""Outgoing message channels. The real ones call providers; these record what would be sent."""


class Outbox:
    def __init__(self, kind):
        self.kind = kind
        self.sent = []

    def send(self, to, subject, body=""):
        if not to:
            raise ValueError(f"{self.kind}: no recipient")
        self.sent.append((to, subject, body))

    def subjects(self):
        return [subject for _, subject, _ in self.sent]


def money(cents):
    return f"{cents // 100}.{cents % 100:02d}"
