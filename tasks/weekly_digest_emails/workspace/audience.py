"""Subscribers of the weekly digest and what we know about each one this week."""
from dataclasses import dataclass, field


@dataclass
class Subscriber:
    email: str
    first_name: str = ""
    locale: str = "en"
    saved_searches: list = field(default_factory=list)
    coupon: str = ""
    unread: int = 0
    paused: bool = False


def active(subscribers):
    return [s for s in subscribers if not s.paused and "@" in s.email]


def personal_fields(sub):
    """The template variables that belong to one subscriber."""
    fields = {"email": sub.email, "first_name": sub.first_name, "unread": sub.unread}
    if sub.coupon:
        fields["coupon"] = sub.coupon
    if sub.saved_searches:
        fields["searches"] = list(sub.saved_searches)
    return fields


def by_locale(subscribers):
    """{locale: [emails]} for the translation team's weekly counts."""
    out = {}
    for sub in subscribers:
        out.setdefault(sub.locale, []).append(sub.email)
    return {locale: sorted(emails) for locale, emails in sorted(out.items())}
