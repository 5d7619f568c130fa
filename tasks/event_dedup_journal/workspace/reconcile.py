"""Daily reconciliation: our wallet balances against the provider's settlement report (account,net_cents lines)."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Mismatch:
    account: str
    ours: int
    theirs: int

    @property
    def difference(self):
        return self.ours - self.theirs


def parse_settlement(text):
    totals = {}
    for number, raw in enumerate(text.strip().splitlines(), start=1):
        if number == 1 and raw.startswith("account,"):
            continue
        try:
            account, cents = raw.split(",")
            totals[account.strip()] = totals.get(account.strip(), 0) + int(cents)
        except ValueError:
            raise ValueError(f"settlement line {number}: cannot read {raw!r}") from None
    return totals


def mismatches(balances, settlement_text):
    """Accounts where the two sides disagree, an account missing on one side counting as zero there."""
    theirs = parse_settlement(settlement_text)
    accounts = sorted(set(balances) | set(theirs))
    out = [Mismatch(a, balances.get(a, 0), theirs.get(a, 0)) for a in accounts]
    return [m for m in out if m.difference]
