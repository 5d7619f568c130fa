"""Exposure monitor: marks the book to the latest quotes and records when it crosses the limit."""


class ExposureMonitor:
    def __init__(self, positions, limit_cents):
        self.positions = dict(positions)
        self.limit_cents = limit_cents
        self.marks = {}
        self.breaches = []
        self._over = False

    def __call__(self, quote):
        if quote.symbol not in self.positions:
            return
        self.marks[quote.symbol] = quote.price_cents
        over = self.exposure_cents() > self.limit_cents
        if over and not self._over:
            self.breaches.append(quote.seq)
        if over:
            self._over = True
        elif self._over:
            self._over = False
            self.breaches.append(quote.seq)

    def exposure_cents(self):
        return sum(abs(qty) * self.marks.get(sym, 0) for sym, qty in self.positions.items())
