"""The one-page loan estimate: payment, rates and the application's ratios."""
from application import affordable, debt_to_income
from money import dollars
from rates import effective_annual_percent, level_payment_cents


def estimate(app):
    payment = level_payment_cents(app.principal_cents, app.apr_percent, app.months)
    return {
        "Loan amount": dollars(app.principal_cents),
        "Monthly payment": dollars(payment),
        "APR": f"{app.apr_percent}%",
        "Effective annual rate": f"{effective_annual_percent(app.apr_percent)}%",
        "Term": f"{app.months // 12} years",
        "Debt-to-income": f"{debt_to_income(app, payment):.1%}",
        "Within guidelines": "yes" if affordable(app, payment) else "no",
    }


def render(fields):
    width = max(len(name) for name in fields)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in fields.items())


def cash_to_close(app, origination_percent=1, fixed_fees_cents=185_000):
    """Down payment plus the lender's origination charge and fixed closing fees."""
    origination = app.principal_cents * origination_percent // 100
    return app.down_cents + origination + fixed_fees_cents
