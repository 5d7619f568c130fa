from dataclasses import dataclass

LADDER = (("warn", 0), ("mute", 60), ("mute", 600), ("ban", None))


@dataclass(frozen=True)
class Action:
    kind: str
    user: str
    seconds: int | None
    reason: str

    def describe(self):
        if self.kind == "allow":
            return f"allow {self.user}"
        if self.seconds is None:
            return f"{self.kind} {self.user} ({self.reason})"
        return f"{self.kind} {self.user} for {self.seconds}s ({self.reason})"


def escalate(user, strike_number, reason):
    index = min(strike_number, len(LADDER)) - 1
    kind, seconds = LADDER[index]
    return Action(kind, user, seconds if kind != "warn" else None, reason)


def allow(user):
    return Action("allow", user, None, "")


def ladder_description():
    steps = []
    for i, (kind, seconds) in enumerate(LADDER, start=1):
        steps.append(f"strike {i}: {kind}" + (f" {seconds}s" if seconds else ""))
    return steps
