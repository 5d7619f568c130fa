"""Monthly payroll: pay each employee's net salary and withhold their income tax."""
from dataclasses import dataclass

COMPANY = "company:operating"
TAX_OFFICE = "tax:withholding"


@dataclass(frozen=True)
class Payslip:
    employee: str
    gross_cents: int
    tax_cents: int

    def __post_init__(self):
        if not 0 <= self.tax_cents <= self.gross_cents:
            raise ValueError(f"{self.employee}: tax {self.tax_cents} outside 0..{self.gross_cents}")


def pay(ledger, slip):
    """Post one payslip; either both postings happen or neither does."""
    with ledger.atomic:
        ledger.transfer(COMPANY, slip.employee, slip.gross_cents - slip.tax_cents, "net salary")
        if slip.tax_cents:
            ledger.transfer(COMPANY, TAX_OFFICE, slip.tax_cents, f"tax for {slip.employee}")


def run_payroll(ledger, slips):
    """Pay everyone or no one: a failed payslip stops the run and undoes the whole month."""
    with ledger.atomic:
        for slip in slips:
            pay(ledger, slip)
    return len(slips)
