import datetime as dt

import pytest

from dates import add_months, is_month_end, parse_date
from invoicing import covers_label, invoices_for, revenue_by_month
from plans import PlanError, plan, upgrade_path
from subscriptions import Subscription, SubscriptionError

D = dt.date


def test_plans():
    assert plan("team-q").monthly_cents == 4_500
    assert [p.code for p in upgrade_path("team-m")] == ["team-y", "team-q", "scale-y"]
    with pytest.raises(PlanError):
        plan("gold")


def test_date_helpers():
    assert parse_date("2026-02-28") == D(2026, 2, 28)
    assert is_month_end(D(2024, 2, 29)) and not is_month_end(D(2026, 2, 27))


def test_monthly_dates_keep_the_day_of_month():
    sub = Subscription("acme", "starter-m", D(2026, 3, 15))
    assert sub.billing_dates(4) == [D(2026, 3, 15), D(2026, 4, 15), D(2026, 5, 15), D(2026, 6, 15)]


def test_month_end_anchor_sticks_to_month_end():
    sub = Subscription("acme", "team-m", D(2026, 1, 31))
    assert sub.billing_dates(4) == [D(2026, 1, 31), D(2026, 2, 28), D(2026, 3, 31), D(2026, 4, 30)]


def test_yearly_plan_renews_on_the_same_date():
    sub = Subscription("globex", "team-y", D(2025, 6, 1))
    assert sub.billing_dates(3) == [D(2025, 6, 1), D(2026, 6, 1), D(2027, 6, 1)]


def test_quarterly_invoices_cover_three_months():
    invoices = invoices_for(Subscription("initech", "team-q", D(2026, 1, 1)), 2)
    assert [(i.number, i.issued_on, i.covers) for i in invoices] == [
        ("INITECH-0001", D(2026, 1, 1), "2026-01..2026-03"),
        ("INITECH-0002", D(2026, 4, 1), "2026-04..2026-06"),
    ]


def test_plan_change_credits_unused_days():
    sub = Subscription("acme", "team-m", D(2026, 5, 1))
    # May has 31 days; switching on the 16th leaves 16 unused: 4900 * 16 // 31 = 2529
    assert sub.change_plan("team-y", D(2026, 5, 16)) == 2529
    assert sub.plan_code == "team-y" and sub.anchor == D(2026, 5, 16)


def test_cancelled_subscription_stops_billing():
    sub = Subscription("acme", "starter-m", D(2026, 1, 10))
    sub.cancel(D(2026, 2, 20))
    assert len(sub.billing_dates(6)) == 2


def test_period_before_start_is_refused():
    with pytest.raises(SubscriptionError):
        Subscription("acme", "starter-m", D(2026, 1, 10)).period_containing(D(2025, 12, 31))


def test_revenue_by_month_and_labels():
    assert covers_label(D(2026, 5, 1), 1) == "2026-05"
    invoices = invoices_for(Subscription("a", "starter-m", D(2026, 1, 5)), 2) + invoices_for(Subscription("b", "starter-m", D(2026, 1, 20)), 1)
    assert revenue_by_month(invoices) == {"2026-01": 2400, "2026-02": 1200}
    assert add_months(D(2026, 1, 5), 0) == D(2026, 1, 5)


def test_dunning_retries_then_suspends():
    from dunning import Dunning

    dunning = Dunning(D(2026, 3, 1))
    assert dunning.retry_dates() == [D(2026, 3, 2), D(2026, 3, 4), D(2026, 3, 8)]
    assert dunning.state_on(D(2026, 3, 5)) == "retrying"
    assert dunning.state_on(D(2026, 3, 20)) == "suspended"
    dunning.paid(D(2026, 3, 4))
    assert dunning.state_on(D(2026, 3, 20)) == "paid"


def test_renewal_notice_and_credit_note():
    from invoicing import credit_note

    sub = Subscription("acme", "starter-m", D(2026, 3, 15))
    assert sub.renewal_notice(D(2026, 3, 8)) is None
    assert sub.renewal_notice(D(2026, 4, 8)) == "acme: Starter monthly renews on 2026-04-15 for 12.00"
    note = credit_note(invoices_for(sub, 1)[0], 500, "goodwill")
    assert (note.number, note.amount_cents) == ("ACME-0001-CR", -500)
