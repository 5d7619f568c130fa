from dataclasses import dataclass, field


@dataclass
class TrafficLog:
    """Which advertiser owns each ad title, and what one airing costs them."""

    rates: dict  # title -> (advertiser, price per spot)
    credits: dict = field(default_factory=dict)  # advertiser -> spots credited back

    def spots(self, log):
        aired = {}
        for _, _, title in log:
            if title in self.rates:
                advertiser = self.rates[title][0]
                aired[advertiser] = aired.get(advertiser, 0) + 1
        return aired

    def credit(self, advertiser, spots):
        if spots <= 0:
            raise ValueError("credit must be positive")
        self.credits[advertiser] = self.credits.get(advertiser, 0) + spots

    def invoice(self, log):
        out = {}
        prices = {adv: price for adv, price in self.rates.values()}
        for advertiser, count in sorted(self.spots(log).items()):
            billable = max(0, count - self.credits.get(advertiser, 0))
            out[advertiser] = {"spots": count, "amount": billable * prices[advertiser]}
        return out


def separation_ok(items, min_gap=2):
    """Two ads need at least min_gap other items between them."""
    last_ad = None
    for i, item in enumerate(items):
        if item.kind != "ad":
            continue
        if last_ad is not None and i - last_ad - 1 < min_gap:
            return False
        last_ad = i
    return True
