"""Rates the business uses: mid-market for the books, mid less our margin for customer conversions."""
from vendor.moneylib import Money, RateTable

MARGIN_BPS = 150


class Treasury:
    def __init__(self, feed, margin_bps=MARGIN_BPS):
        self.feed = feed
        self.margin_bps = margin_bps
        self.mid = RateTable(feed.latest())
        self.customer = RateTable(self.mid.rates)
        self.customer.apply_margin(margin_bps)

    def refresh(self):
        """Pick up the feed's new rates; tables handed out earlier see them too."""
        latest = self.feed.latest()
        self.mid.rates.clear()
        self.mid.rates.update(latest)
        self.customer.rates.clear()
        self.customer.rates.update(latest)
        self.customer.apply_margin(self.margin_bps)

    def customer_conversion(self, amount, from_code, to_code):
        return self.customer.convert(Money(amount, from_code), to_code)

    def mid_quote(self, base, quote):
        return self.mid.rate(base, quote)
