"""Ticket prices per section, in pence, with promotions applied on top."""

DEFAULT_PRICES = {"STALLS": 4500, "CIRCLE": 3500, "BOX": 6000}


class PriceTable:
    def __init__(self, prices=None):
        self.prices = dict(prices if prices is not None else DEFAULT_PRICES)
        self.promotions = []

    def price(self, section_code):
        try:
            return self.prices[section_code]
        except KeyError:
            raise KeyError(f"no price for section {section_code}") from None

    def discount(self, section_code, percent, label):
        if not 0 < percent < 100:
            raise ValueError("discount must be between 0 and 100 percent")
        self.prices[section_code] = self.prices[section_code] * (100 - percent) // 100
        self.promotions.append(label)

    def surcharge_all(self, pence, label):
        for code in self.prices:
            self.prices[code] += pence
        self.promotions.append(label)

    def describe(self):
        """'BOX 60.00, CIRCLE 35.00, STALLS 45.00 (promotions: ...)' for the programme page."""
        text = ", ".join(f"{code} {pence / 100:.2f}" for code, pence in sorted(self.prices.items()))
        return f"{text} (promotions: {', '.join(self.promotions)})" if self.promotions else text
