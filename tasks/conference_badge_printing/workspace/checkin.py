from datetime import datetime

from payload import decode, encode
from printing import PrintJob

LANYARDS = {"attendee": "blue", "speaker": "orange"}


class CheckInDesk:
    def __init__(self, attendees, event="CONF26"):
        self.event = event
        self.by_ref = {a.ref: a for a in attendees}
        self.checked_in = {}
        self.job = PrintJob("check-in")
        self.reprints = {}

    def check_in(self, ref, when: datetime):
        attendee = self.by_ref.get(ref)
        if attendee is None:
            raise KeyError(f"no registration {ref}")
        if ref in self.checked_in:
            return None
        self.checked_in[ref] = when
        badge = self.job.add(attendee)
        badge["code"] = encode(attendee, self.event)
        badge["lanyard"] = LANYARDS[attendee.role]
        return badge

    def reprint(self, ref):
        if ref not in self.checked_in:
            raise KeyError(f"{ref} has not checked in")
        self.reprints[ref] = self.reprints.get(ref, 0) + 1
        return self.job.add(self.by_ref[ref])

    def scan(self, code):
        data = decode(code)
        if data["e"] != self.event:
            return "wrong event"
        if data["r"] not in self.checked_in:
            return "not checked in"
        return f"welcome {data['n']}"

    def stats(self):
        roles = {}
        for ref in self.checked_in:
            role = self.by_ref[ref].role
            roles[role] = roles.get(role, 0) + 1
        return {"checked_in": len(self.checked_in), "of": len(self.by_ref), "roles": dict(sorted(roles.items()))}
