"""Pro-rata royalties: a month's pool split by each artist's share of scrobbled listening time."""
from collections import defaultdict
from decimal import ROUND_DOWN, Decimal


def listening_seconds(scrobbles, catalog):
    by_artist = defaultdict(int)
    for _, track_id, seconds in scrobbles:
        by_artist[catalog.get(track_id).artist] += seconds
    return dict(by_artist)


def split_pool(pool, scrobbles, catalog):
    """{artist: Decimal payout}; rounding leftovers stay in the pool and are reported under None."""
    seconds = listening_seconds(scrobbles, catalog)
    total = sum(seconds.values())
    if total == 0:
        return {None: pool}
    payouts = {}
    for artist in sorted(seconds):
        share = (pool * seconds[artist] / total).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
        payouts[artist] = share
    payouts[None] = pool - sum(payouts.values())
    return payouts
