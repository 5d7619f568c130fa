"""Daily figures read back from the scan logs (current and rotated files)."""
import os
from collections import Counter, defaultdict


def read_log(path):
    entries = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            day, clock, pass_id, outcome = line.split()
            entries.append((day, clock, pass_id, outcome))
    return entries


def rides_by_day(root, lift_code):
    """{day: rides} from every file of the lift, rotated ones included."""
    prefix = f"{lift_code.lower()}.log"
    totals = Counter()
    for name in sorted(os.listdir(root)):
        if name == prefix or name.startswith(prefix + "."):
            for day, _, _, outcome in read_log(os.path.join(root, name)):
                if outcome == "ok":
                    totals[day] += 1
    return dict(sorted(totals.items()))


def busiest_hour(root, lift_code, day):
    hours = defaultdict(int)
    path = os.path.join(root, f"{lift_code.lower()}.log")
    for d, clock, _, outcome in read_log(path):
        if d == day and outcome == "ok":
            hours[int(clock[:2])] += 1
    if not hours:
        return None
    return min(hours, key=lambda h: (-hours[h], h))


def refusals(entries):
    return dict(sorted(Counter(o for *_, o in entries if o != "ok").items()))


def pass_usage(root):
    """{pass id: {lift code: rides}} over every log file in the folder."""
    usage = defaultdict(Counter)
    for name in sorted(os.listdir(root)):
        if ".log" not in name:
            continue
        lift = name.split(".log")[0].upper()
        for _, _, pass_id, outcome in read_log(os.path.join(root, name)):
            if outcome == "ok":
                usage[pass_id][lift] += 1
    return {p: dict(sorted(c.items())) for p, c in sorted(usage.items())}
