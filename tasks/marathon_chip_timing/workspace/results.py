from timing import format_pace


def ranking(runners):
    finished = [r for r in runners if r.finish is not None]
    return sorted(finished, key=lambda r: (r.finish, r.bib))


def places(runners):
    out = {}
    for place, r in enumerate(ranking(runners), start=1):
        out[r.bib] = place
    return out


def category_winners(runners):
    winners = {}
    for r in ranking(runners):
        winners.setdefault(r.category, r.bib)
    return dict(sorted(winners.items()))


def gaps(runners):
    order = ranking(runners)
    if not order:
        return []
    leader = order[0].finish
    return [(r.bib, (r.finish - leader).total_seconds()) for r in order]


def results_table(runners, distance_km):
    rows = []
    for place, r in enumerate(ranking(runners), start=1):
        rows.append(f"{place:>3} {r.bib:>5} {r.name:<12} {r.category:<4} {r.finish} {format_pace(r.pace_per_km(distance_km))}")
    return rows


def finishers_by_category(runners):
    counts = {}
    for r in ranking(runners):
        counts[r.category] = counts.get(r.category, 0) + 1
    return dict(sorted(counts.items()))
