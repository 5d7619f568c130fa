"""Handing rendered digests to the mail provider: batches, send hour by locale, and a send report."""
SEND_HOUR_UTC = {"en": 8, "pt": 8, "de": 7, "fi": 6}
BATCH_SIZE = 50


class ProviderOutbox:
    def __init__(self):
        self.batches = []

    def submit(self, hour_utc, messages):
        self.batches.append((hour_utc, list(messages)))
        return len(messages)


def batches(items, size=BATCH_SIZE):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def schedule(subscribers, mails, outbox, size=BATCH_SIZE):
    """Group mails by the subscriber's send hour and submit them in batches; returns {hour: count}."""
    locale_of = {s.email: s.locale for s in subscribers}
    by_hour = {}
    for mail in mails:
        hour = SEND_HOUR_UTC.get(locale_of.get(mail[0], "en"), 8)
        by_hour.setdefault(hour, []).append(mail)
    sent = {}
    for hour in sorted(by_hour):
        for chunk in batches(by_hour[hour], size):
            sent[hour] = sent.get(hour, 0) + outbox.submit(hour, chunk)
    return sent
