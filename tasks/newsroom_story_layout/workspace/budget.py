"""Word budgets per desk and reading time for the web edition."""
import math

WORDS_PER_MINUTE = 230
DESK_BUDGET = {"news": 600, "sport": 500, "business": 700, "features": 1500}


def reading_minutes(story):
    return max(1, math.ceil(story.words() / WORDS_PER_MINUTE))


def over_budget(stories):
    """{slug: words over} for stories longer than their desk allows."""
    out = {}
    for s in stories:
        excess = s.words() - DESK_BUDGET[s.desk]
        if excess > 0:
            out[s.slug] = excess
    return out


def desk_totals(stories):
    totals = {}
    for s in stories:
        totals[s.desk] = totals.get(s.desk, 0) + s.words()
    return dict(sorted(totals.items()))
