from datetime import date, timedelta

import pytest

from fees import late_fee_cents, patron_balance_cents
from holds import HoldQueue
from loans import can_borrow, checkout, renew
from notices import build_notices
from patrons import BorrowRefused, Patron, lend
from receipts import receipt

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


def test_desk_refuses_blocked_and_junior_loans():
    ana = Patron("A1001", "Ana")
    old = checkout("D7", "A1001", "dvd", date(2024, 3, 1))
    ana.returns.append((old, old.due_on + timedelta(days=30)))
    with pytest.raises(BorrowRefused, match="owes 25.00"):
        lend(ana, [], "B1", "book", MAY_1)
    ana.pay(2500)
    assert lend(ana, [], "B1", "book", MAY_1).patron == "A1001"
    with pytest.raises(BorrowRefused, match="junior"):
        lend(Patron("J2002", "Jo"), [], "D1", "dvd", MAY_1)


def test_receipt_lists_items_by_due_date():
    ben = Patron("A1002", "Ben")
    loans = [lend(ben, [], "B2", "book", MAY_1), lend(ben, [], "M9", "magazine", MAY_1)]
    assert receipt(ben, loans) == (
        "Borrower: Ben (A1002)\n\nM9       magazine  due Wed 08 May 2024\nB2       book      due Wed 22 May 2024\n\n2 items"
    )


def test_holds_pass_down_the_queue_when_not_collected():
    holds = HoldQueue()
    assert [holds.place("B5", p) for p in ("ana", "ben", "cai")] == [1, 2, 3]
    with pytest.raises(ValueError):
        holds.place("B5", "ben")
    ready = holds.returned("B5", MAY_1)
    assert (ready.patron, ready.shelf_until) == ("ana", date(2024, 5, 8))
    assert holds.expire(date(2024, 5, 8)) == []
    ((barcode, nxt),) = holds.expire(date(2024, 5, 9))
    assert (barcode, nxt.patron, holds.position("B5", "cai")) == ("B5", "ben", 1)
    holds.cancel("B5", "cai")
    assert holds.position("B5", "cai") is None
