"""Daily figures for the garage manager."""
from collections import Counter, defaultdict

from billing import charge
from sessions import parse_log_line


def daily_report(lines):
    """Revenue per tariff, stays per tariff, the busiest entry hour and the average stay in minutes."""
    sessions = [parse_log_line(line) for line in lines if line.strip()]
    if not sessions:
        return {"revenue": {}, "stays": {}, "busiest_hour": None, "average_minutes": 0}
    revenue = defaultdict(int)
    stays = Counter()
    hours = Counter()
    for s in sessions:
        revenue[s.tariff_name] += charge(s).cents
        stays[s.tariff_name] += 1
        hours[s.entered.hour] += 1
    busiest = min(hours, key=lambda h: (-hours[h], h))
    return {
        "revenue": dict(sorted(revenue.items())),
        "stays": dict(sorted(stays.items())),
        "busiest_hour": busiest,
        "average_minutes": round(sum(s.minutes for s in sessions) / len(sessions)),
    }


def format_report(report):
    lines = [f"busiest entry hour: {report['busiest_hour']}", f"average stay: {report['average_minutes']} min"]
    for name, cents in report["revenue"].items():
        lines.append(f"{name}: {report['stays'][name]} stays, {cents // 100}.{cents % 100:02d}")
    return "\n".join(lines)
