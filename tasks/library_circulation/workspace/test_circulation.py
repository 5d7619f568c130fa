from datetime import date, timedelta

import pytest

from fees import late_fee_cents, patron_balance_cents
from loans import can_borrow, checkout, renew
from notices import build_notices

MAY_1 = date(2024, 5, 1)


def test_books_are_due_in_three_weeks_and_renew_from_due_date():
    loan = checkout("B1", "ana", "book", MAY_1)
    assert loan.due_on == date(2024, 5, 22)
    assert renew(loan).due_on == date(2024, 6, 12)
    with pytest.raises(ValueError):
        renew(renew(renew(loan)))


def test_return_on_due_date_is_free():
    loan = checkout("D1", "ana", "dvd", MAY_1)
    assert late_fee_cents(loan, loan.due_on) == 0


def test_fee_counts_each_day_past_due():
    loan = checkout("B1", "ana", "book", MAY_1)
    assert late_fee_cents(loan, loan.due_on + timedelta(days=3)) == 75


def test_fee_is_capped_per_item():
    loan = checkout("D1", "ana", "dvd", MAY_1)
    assert late_fee_cents(loan, loan.due_on + timedelta(days=90)) == 2500
    assert patron_balance_cents([(loan, loan.due_on + timedelta(days=90)), (loan, loan.due_on - timedelta(days=1))]) == 2500


def test_no_notice_for_items_due_today():
    today = date(2024, 5, 8)
    loans = [checkout("D1", "ana", "dvd", MAY_1), checkout("B2", "ben", "book", MAY_1)]
    assert build_notices(loans, today) == {}, "ana's dvd is due today, not overdue"


def test_notice_lists_overdue_items_oldest_first():
    loans = [checkout("M9", "ana", "magazine", date(2024, 5, 3)), checkout("D1", "ana", "dvd", MAY_1)]
    notices = build_notices(loans, date(2024, 5, 12))
    assert notices == {"ana": "Please return:\nD1 (dvd) was due 2024-05-08\nM9 (magazine) was due 2024-05-10"}


def test_borrow_limit_counts_only_that_patrons_items_of_that_kind():
    out = [checkout(f"D{i}", "ana", "dvd", MAY_1) for i in range(3)] + [checkout("D9", "ben", "dvd", MAY_1)]
    assert not can_borrow(out, "ana", "dvd")
    assert can_borrow(out, "ana", "book")
    assert can_borrow(out, "ben", "dvd")
