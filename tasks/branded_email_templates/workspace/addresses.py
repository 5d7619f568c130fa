"""Recipient addresses: `hank@example.com` or `Hank Scorpio <hank@example.com>`."""
import re
from dataclasses import dataclass

_EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$")
_WITH_NAME = re.compile(r"^\s*(?P<name>[^<>]*?)\s*<(?P<email>[^<>]+)>\s*$")
_NEEDS_QUOTES = re.compile(r"[,;:()\[\]\\\"@]")


class InvalidAddress(ValueError):
    pass


@dataclass(frozen=True)
class Address:
    email: str
    name: str = ""

    def __str__(self):
        if not self.name:
            return self.email
        name = f'"{self.name}"' if _NEEDS_QUOTES.search(self.name) else self.name
        return f"{name} <{self.email}>"


def parse_address(text: str) -> Address:
    m = _WITH_NAME.match(text)
    name, email = (m.group("name").strip('" '), m.group("email").strip()) if m else ("", text.strip())
    if not _EMAIL.match(email):
        raise InvalidAddress(f"not an email address: {text!r}")
    local, _, domain = email.rpartition("@")
    return Address(f"{local}@{domain.lower()}", name)


def parse_recipients(text: str) -> list[Address]:
    """A `;`-separated recipient list, each address once, in the order given."""
    seen, out = set(), []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        address = parse_address(part)
        if address.email not in seen:
            seen.add(address.email)
            out.append(address)
    return out
