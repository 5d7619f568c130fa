from brackets import marginal_rate
from export import loads


def summary_lines(r):
    balance = r.balance()
    outcome = f"refund {-balance}" if balance < 0 else f"owed {balance}"
    return [
        f"{r.taxpayer} {r.year} ({r.filing_status})",
        f"gross income     {r.gross_income:>12}",
        f"deduction        {r.deduction:>12}",
        f"taxable income   {r.taxable_income:>12}",
        f"tax after credit {r.tax_due():>12}",
        f"marginal rate    {marginal_rate(r.taxable_income, r.filing_status) * 100:>11}%",
        f"effective rate   {r.effective_rate():>11}%",
        outcome,
    ]


def household_report(texts):
    returns = [loads(t) for t in texts]
    total_due = sum((r.tax_due() for r in returns), start=0)
    refunds = [r.taxpayer for r in returns if r.balance() < 0]
    return {"returns": len(returns), "total_tax": str(total_due), "refunds": sorted(refunds)}
