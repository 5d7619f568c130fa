"""Morning job that emails patrons about items still out past their due date."""

from collections import defaultdict


def overdue_loans(open_loans, today):
    return [loan for loan in open_loans if loan.due_on <= today]


def build_notices(open_loans, today):
    """One notice per patron, items oldest-due first."""
    by_patron = defaultdict(list)
    for loan in sorted(overdue_loans(open_loans, today), key=lambda l: (l.due_on, l.barcode)):
        by_patron[loan.patron].append(loan)
    notices = {}
    for patron, loans in sorted(by_patron.items()):
        lines = [f"{loan.barcode} ({loan.kind}) was due {loan.due_on.isoformat()}" for loan in loans]
        notices[patron] = "Please return:\n" + "\n".join(lines)
    return notices
