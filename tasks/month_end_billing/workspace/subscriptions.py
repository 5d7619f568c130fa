"""Subscriptions: a customer on a plan, billed from an anchor date every `plan.months` months."""
from dataclasses import dataclass, field

from dates import add_months, days_between
from plans import plan


class SubscriptionError(ValueError):
    pass


@dataclass
class Subscription:
    customer: str
    plan_code: str
    anchor: object
    cancelled_on: object = None
    history: list = field(default_factory=list)

    @property
    def plan(self):
        return plan(self.plan_code)

    def billing_dates(self, count):
        """The first `count` billing dates, the anchor included, always counted from the anchor."""
        step = self.plan.months
        dates = [add_months(self.anchor, i * step) for i in range(count)]
        if self.cancelled_on is not None:
            dates = [d for d in dates if d <= self.cancelled_on]
        return dates

    def period_containing(self, day):
        """(start, end) of the billing period that holds `day`; end is the next billing date."""
        if day < self.anchor:
            raise SubscriptionError(f"{day} is before the subscription started ({self.anchor})")
        i = 0
        while True:
            start = add_months(self.anchor, i * self.plan.months)
            end = add_months(self.anchor, (i + 1) * self.plan.months)
            if start <= day < end:
                return start, end
            i += 1

    def change_plan(self, new_code, on_day):
        """Switch plans on `on_day`; returns the credit in cents for the unused part of the old period."""
        start, end = self.period_containing(on_day)
        unused = days_between(on_day, end)
        credit = self.plan.price_cents * unused // days_between(start, end)
        self.history.append((on_day, self.plan_code, new_code, credit))
        self.plan_code = new_code
        self.anchor = on_day
        return credit

    def next_billing_date(self, after):
        """The first billing date strictly after `after`."""
        _, end = self.period_containing(max(after, self.anchor))
        return end

    def renewal_notice(self, today, notice_days=7):
        """Text of the reminder sent `notice_days` before a renewal, or None when none is due today."""
        upcoming = self.next_billing_date(today)
        if self.cancelled_on is not None or days_between(today, upcoming) != notice_days:
            return None
        return f"{self.customer}: {self.plan.name} renews on {upcoming.isoformat()} for {self.plan.price_cents / 100:.2f}"

    def cancel(self, on_day):
        self.cancelled_on = on_day
