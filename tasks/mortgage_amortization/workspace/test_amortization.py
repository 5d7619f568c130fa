import pytest

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
