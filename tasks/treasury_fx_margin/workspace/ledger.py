"""Multi-currency accounts and their month-end revaluation into the reporting currency."""
from collections import defaultdict
from dataclasses import dataclass

from vendor.moneylib import Money


@dataclass(frozen=True)
class Revaluation:
    account: str
    reported: Money
    booked: Money

    @property
    def gain(self):
        return self.reported - self.booked


class Ledger:
    def __init__(self, reporting="EUR"):
        self.reporting = reporting
        self.balances = defaultdict(dict)
        self.booked = defaultdict(lambda: Money(0, reporting))

    def post(self, account, amount, booked_rate_table):
        """Post a foreign amount, booked at today's mid rate in the reporting currency."""
        code = amount.currency.code
        held = self.balances[account].get(code, Money(0, code))
        self.balances[account][code] = held + amount
        self.booked[account] = self.booked[account] + booked_rate_table.convert(amount, self.reporting)

    def revalue(self, account, table):
        reported = sum((table.convert(m, self.reporting) for m in self.balances[account].values()), Money(0, self.reporting))
        return Revaluation(account, reported, self.booked[account])

    def month_end(self, table):
        return [self.revalue(account, table) for account in sorted(self.balances)]

    def report(self, table):
        """Month-end lines as the controller reads them: account, reported value, unrealised gain."""
        lines = []
        for reval in self.month_end(table):
            sign = "+" if reval.gain.amount >= 0 else "-"
            lines.append(f"{reval.account:<12} {reval.reported.amount:>14} {sign}{abs(reval.gain.amount)}")
        return "\n".join(lines)
