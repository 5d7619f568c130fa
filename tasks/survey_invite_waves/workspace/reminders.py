"""Reminder e-mails for invites that have not been answered."""
from dataclasses import dataclass
from datetime import timedelta

REMINDER_AFTER = (timedelta(days=3), timedelta(days=7))


@dataclass(frozen=True)
class Reminder:
    token: str
    email: str
    send_on: object
    nth: int


def due_reminders(campaign, wave, sent_on, today, already_sent=()):
    """Reminders due by `today` for wave `wave` (sent on `sent_on`), skipping (token, nth) pairs already sent."""
    done = set(already_sent)
    out = []
    for token, invite in sorted(campaign.invites.items()):
        if invite.wave != wave or token in campaign.responses:
            continue
        for nth, delay in enumerate(REMINDER_AFTER, start=1):
            when = sent_on + delay
            if when <= today and (token, nth) not in done:
                out.append(Reminder(token, invite.email, when, nth))
    return out


def render(reminder, survey_url, title):
    """The reminder's subject and body; the second reminder is the last one a respondent gets."""
    subject = f"Reminder: {title}" if reminder.nth == 1 else f"Last reminder: {title}"
    link = f"{survey_url.rstrip('/')}/s/{reminder.token}"
    closing = "This is the last reminder we will send." if reminder.nth == len(REMINDER_AFTER) else "Thank you!"
    return subject, f"Hello,\n\nyou can still answer our survey: {link}\n\n{closing}\n"
