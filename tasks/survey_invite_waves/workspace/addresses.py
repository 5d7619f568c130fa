"""Recipient lists as marketing uploads them: one address per line, with duplicates, blanks and opt-outs."""
import re

_EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$")


class AddressError(ValueError):
    pass


def normalise(address):
    address = address.strip().lower()
    if not _EMAIL.match(address):
        raise AddressError(f"not an e-mail address: {address!r}")
    local, domain = address.split("@")
    if domain in ("gmail.com", "googlemail.com"):
        local = local.split("+")[0].replace(".", "")
        domain = "gmail.com"
    return f"{local}@{domain}"


def recipients(text, opted_out=()):
    """Unique, normalised addresses in upload order, without opt-outs; bad lines are returned separately."""
    blocked = {normalise(a) for a in opted_out}
    seen, good, bad = set(), [], []
    for raw in text.splitlines():
        if not raw.strip():
            continue
        try:
            address = normalise(raw)
        except AddressError:
            bad.append(raw.strip())
            continue
        if address not in seen and address not in blocked:
            seen.add(address)
            good.append(address)
    return good, bad


def domain_counts(addresses):
    """How many recipients each mail domain has, largest first: big providers throttle bulk sends."""
    counts = {}
    for address in addresses:
        domain = address.split("@", 1)[1]
        counts[domain] = counts.get(domain, 0) + 1
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))
