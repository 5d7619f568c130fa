"""Loan applications as the intake form submits them, checked against the lender's limits."""
from dataclasses import dataclass
from decimal import Decimal

from money import parse_dollars

TERMS_MONTHS = (120, 180, 240, 360)
MAX_LOAN_TO_VALUE = Decimal("0.97")
MAX_DEBT_TO_INCOME = Decimal("0.43")


class ApplicationError(ValueError):
    pass


@dataclass(frozen=True)
class Application:
    price_cents: int
    down_cents: int
    apr_percent: Decimal
    months: int
    monthly_income_cents: int
    monthly_debts_cents: int = 0

    @property
    def principal_cents(self):
        return self.price_cents - self.down_cents

    @property
    def loan_to_value(self):
        return Decimal(self.principal_cents) / Decimal(self.price_cents)


def from_form(form):
    try:
        app = Application(
            parse_dollars(form["price"]),
            parse_dollars(form["down"]),
            Decimal(form["apr"]),
            int(form["term_years"]) * 12,
            parse_dollars(form["income"]),
            parse_dollars(form.get("debts", "0")),
        )
    except (KeyError, ValueError, ArithmeticError) as exc:
        raise ApplicationError(f"incomplete or unreadable form: {exc}") from None
    if app.months not in TERMS_MONTHS:
        raise ApplicationError(f"a {app.months // 12}-year term is not offered")
    if not 0 <= app.down_cents < app.price_cents:
        raise ApplicationError("the down payment must be less than the price")
    if app.loan_to_value > MAX_LOAN_TO_VALUE:
        raise ApplicationError(f"loan-to-value {app.loan_to_value:.1%} is above {MAX_LOAN_TO_VALUE:.0%}")
    return app


def debt_to_income(app, payment_cents):
    return Decimal(app.monthly_debts_cents + payment_cents) / Decimal(app.monthly_income_cents)


def affordable(app, payment_cents):
    return debt_to_income(app, payment_cents) <= MAX_DEBT_TO_INCOME
