import statistics


def flat(bonus):
    def apply(pcts):
        return {s: round(min(100.0, p + bonus), 2) for s, p in pcts.items()}

    return apply


def top_to_hundred(pcts):
    if not pcts:
        return {}
    top = max(pcts.values())
    if top <= 0:
        return dict(pcts)
    return {s: round(100.0 * p / top, 2) for s, p in pcts.items()}


def target_mean(mean):
    def apply(pcts):
        if not pcts:
            return {}
        shift = mean - statistics.fmean(pcts.values())
        if shift <= 0:
            return dict(pcts)
        return {s: round(min(100.0, p + shift), 2) for s, p in pcts.items()}

    return apply


def chain(*curves):
    def apply(pcts):
        for c in curves:
            pcts = c(pcts)
        return pcts

    return apply
