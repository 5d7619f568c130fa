"""Plan the next seasons field by field: the most profitable crop that breaks no rule, with a cap on
how much of the farm one crop may take."""
from crops import CROPS
from rules import violations


def plan(fields, first_year, seasons=1, max_share=0.5):
    total_ha = sum(f.hectares for f in fields)
    chosen = {}
    for year in range(first_year, first_year + seasons):
        area = {}
        for f in sorted(fields, key=lambda f: (-f.hectares, f.name)):
            options = sorted(CROPS.values(), key=lambda c: (-c.margin_per_ha, c.name))
            for c in options:
                if violations(f, year, c.name):
                    continue
                if (area.get(c.name, 0) + f.hectares) / total_ha > max_share:
                    continue
                f.plant(year, c.name)
                area[c.name] = area.get(c.name, 0) + f.hectares
                chosen[(f.name, year)] = c.name
                break
            else:
                f.plant(year, "clover ley")
                chosen[(f.name, year)] = "clover ley"
    return chosen


def audit(fields):
    """Every rule broken anywhere in the recorded histories."""
    problems = []
    for f in fields:
        for year in sorted(f.history):
            name = f.history.pop(year)
            problems.extend(violations(f, year, name))
            f.history[year] = name
    return problems
