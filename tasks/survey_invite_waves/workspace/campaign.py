"""A survey campaign sent out in waves; each wave ends with an audit sample of its responses."""
from dataclasses import dataclass

from sampling import AuditSampler
from tokens import new_invite_token


@dataclass(frozen=True)
class Invite:
    token: str
    email: str
    wave: int


class Campaign:
    def __init__(self, sampler: AuditSampler):
        self.sampler = sampler
        self.wave = 1
        self.invites: dict[str, Invite] = {}
        self.responses: dict[str, dict] = {}
        self.audits: dict[int, list[str]] = {}

    def invite(self, emails: list[str]) -> list[Invite]:
        sent = []
        for email in emails:
            invite = Invite(new_invite_token(), email.strip().lower(), self.wave)
            self.invites[invite.token] = invite
            sent.append(invite)
        return sent

    def respond(self, token: str, answers: dict) -> Invite:
        if token not in self.invites:
            raise KeyError(f"unknown invite token {token!r}")
        self.responses[token] = answers
        return self.invites[token]

    def close_wave(self) -> list[str]:
        """Draw this wave's audit sample and open the next wave."""
        wave_tokens = [t for t in self.responses if self.invites[t].wave == self.wave]
        self.audits[self.wave] = self.sampler.draw(wave_tokens) if wave_tokens else []
        self.wave += 1
        return self.audits[self.wave - 1]
