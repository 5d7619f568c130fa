"""Insurance figures for loans, in the borrower's currency."""
from decimal import ROUND_HALF_UP, Decimal

RATES_TO_EUR = {"EUR": Decimal("1"), "GBP": Decimal("1.17"), "USD": Decimal("0.92"), "CHF": Decimal("1.04")}


def to_eur(amount, currency):
    try:
        return amount * RATES_TO_EUR[currency]
    except KeyError:
        raise ValueError(f"no rate for {currency}") from None


def loan_cover(collection, loan, currency="EUR"):
    """Nail-to-nail cover: the sum of the works' valuations plus 10% for transit."""
    total = sum((to_eur(collection.works[a].valuation, collection.works[a].currency) for a in loan.accessions), Decimal(0))
    total *= Decimal("1.10")
    return (total / RATES_TO_EUR[currency]).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def works_by_room(loan):
    """{room number: [accessions]} for the borrower's hanging plan."""
    out = {}
    for accession, room in loan.rooms.items():
        out.setdefault(room, []).append(accession)
    return {room: sorted(v) for room, v in sorted(out.items())}


def condition_summary(work):
    """The latest condition report and how many years it is since the first one."""
    if not work.condition:
        return None
    years = sorted(work.condition)
    return {"latest": work.condition[years[-1]], "year": years[-1], "span_years": years[-1] - years[0]}
