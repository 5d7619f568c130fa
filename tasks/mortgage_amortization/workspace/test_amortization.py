import pytest

from application import ApplicationError, from_form
from disclosure import cash_to_close, estimate, render
from money import dollars, parse_dollars
from payoff import payoff_after_cents, total_interest_cents
from rates import effective_annual_percent, level_payment_cents, monthly_rate
from schedule import amortize

# $200,000 at 6% over 30 years: the textbook payment is $1,199.10 a month.
PRINCIPAL, APR, MONTHS = 20_000_000, 6, 360


def test_level_payment_matches_textbook_value():
    assert level_payment_cents(PRINCIPAL, APR, MONTHS) == 119911  # 119910.10 cents, rounded up
    assert level_payment_cents(1200, 0, 12) == 100
    with pytest.raises(ValueError):
        monthly_rate(-1)


def test_first_month_is_mostly_interest():
    first = amortize(PRINCIPAL, APR, MONTHS)[0]
    assert (first.interest, first.principal) == (100000, 19911)  # 0.5% of $200,000


def test_second_month_interest_is_on_the_reduced_balance():
    second = amortize(PRINCIPAL, APR, MONTHS)[1]
    assert second.interest == 99900, f"month 2 charged {second.interest} cents of interest"


def test_schedule_ends_at_zero_with_a_small_final_payment():
    rows = amortize(PRINCIPAL, APR, MONTHS)
    assert len(rows) == MONTHS
    assert rows[-1].balance == 0
    assert rows[-1].payment <= 119911


def test_short_loan_total_interest():
    # $1,000 at 12% over 3 months: payments of $340.03; interest 10.00 + 6.70 + 3.37.
    rows = amortize(100_000, 12, 3)
    assert [r.interest for r in rows] == [1000, 670, 337]
    assert total_interest_cents(100_000, 12, 3) == 2007


def test_payoff_after_one_year():
    owed = payoff_after_cents(PRINCIPAL, APR, MONTHS, 12)
    assert 19_750_000 < owed < 19_760_000, f"still owed {owed} cents after a year"


def test_effective_annual_rate():
    # 1.005 ** 12 = 1.0616778: 6% compounded monthly is 6.168% a year.
    assert str(effective_annual_percent(6)) == "6.168"
    assert str(effective_annual_percent(0)) == "0.000"


FORM = {"price": "$250,000", "down": "$50,000", "apr": "6", "term_years": "30", "income": "$9,000.00", "debts": "$450"}


def test_dollar_formatting():
    assert dollars(12345678) == "$123,456.78" and dollars(-5) == "($0.05)"
    assert parse_dollars("$1,199.1") == 119910 and parse_dollars("(2.00)") == -200
    with pytest.raises(ValueError):
        parse_dollars("12.345")


def test_application_limits():
    app = from_form(FORM)
    assert app.principal_cents == PRINCIPAL and app.months == MONTHS
    for bad in (dict(FORM, term_years="25"), dict(FORM, down="$1,000"), dict(FORM, apr="six")):
        with pytest.raises(ApplicationError):
            from_form(bad)


def test_loan_estimate():
    fields = estimate(from_form(FORM))
    assert fields["Monthly payment"] == "$1,199.11"
    assert fields["Debt-to-income"] == "18.3%" and fields["Within guidelines"] == "yes"
    assert render(fields).splitlines()[1] == "Monthly payment        $1,199.11"
    assert dollars(cash_to_close(from_form(FORM))) == "$53,850.00"
