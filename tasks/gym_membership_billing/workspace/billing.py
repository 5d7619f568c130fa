from datetime import date, timedelta
from decimal import Decimal

from members import Member
from plans import CLASS_FEE, JOINING_FEE
from proration import days_in_month, month_end, prorate


def invoice(member: Member, year, month):
    first = date(year, month, 1)
    last = month_end(first)
    lines = []
    if not (member.joined <= last and (member.cancelled is None or member.cancelled >= first)):
        return lines
    if member.joined.year == year and member.joined.month == month:
        lines.append(("joining fee", JOINING_FEE))
    start = max(first, member.joined)
    end = min(last, member.cancelled) if member.cancelled else last
    cuts = sorted({start} | {d for d, _ in member.plan_changes if start < d <= end})
    for i, seg_start in enumerate(cuts):
        seg_end = cuts[i + 1] - timedelta(days=1) if i + 1 < len(cuts) else end
        p = member.plan_on(seg_start)
        full = seg_start == first and seg_end == last
        amount = p.monthly if full else prorate(p.monthly, seg_start, seg_end)
        label = p.name if full else f"{p.name} {seg_start.day}-{seg_end.day}/{days_in_month(first)}"
        lines.append((label, amount))
    included = member.plan_on(end).classes_included
    booked = member.classes.get(f"{year}-{month:02d}", 0)
    if booked > included:
        lines.append((f"{booked - included} extra classes", CLASS_FEE * (booked - included)))
    return lines


def total(lines):
    return sum((amount for _, amount in lines), Decimal("0.00"))


def statement(member, year, month):
    lines = invoice(member, year, month)
    out = [f"{member.name} {year}-{month:02d}"]
    out += [f"  {label:<28}{amount:>8}" for label, amount in lines]
    out.append(f"  {'total':<28}{total(lines):>8}")
    return out


def annual_summary(member, year):
    months = {}
    for month in range(1, 13):
        lines = invoice(member, year, month)
        if lines:
            months[f"{year}-{month:02d}"] = str(total(lines))
    grand = sum((Decimal(v) for v in months.values()), Decimal("0.00"))
    return {"months": months, "total": str(grand), "billed_months": len(months)}
