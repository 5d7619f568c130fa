"""Who gets paged for an incident."""
from datetime import date

from overrides import Overrides, week_of
from rotation import Rotation


class NobodyAvailable(RuntimeError):
    pass


def escalation_chain(rotation: Rotation, today: date | None = None, overrides: Overrides | None = None) -> list[str]:
    """Members to page in order: this week's on-call (after overrides) first, then the rotation order.

    Members on leave are skipped; an unacknowledged page moves down the chain.
    """
    order = rotation.members()
    first = order[0]
    if overrides is not None and today is not None:
        first = overrides.apply(week_of(today), first)
    chain = [first] + [m for m in order if m != first]
    return [m for m in chain if m not in rotation.on_leave]


def responder(rotation: Rotation, today: date | None = None, overrides: Overrides | None = None) -> str:
    chain = escalation_chain(rotation, today, overrides)
    if not chain:
        raise NobodyAvailable(f"everyone in {rotation.team} is on leave")
    return chain[0]


def page(rotation: Rotation, incident: str, today: date | None = None, overrides: Overrides | None = None) -> str:
    who = responder(rotation, today, overrides)
    return f"[{rotation.team}] paging {who}: {incident}"
