"""OHLC candles built from every `size` quotes of a symbol: (open, high, low, close, volume)."""


class CandleBuilder:
    def __init__(self, size):
        if size < 1:
            raise ValueError("a candle needs at least one quote")
        self.size = size
        self._closed = {}
        self._open = {}

    def __call__(self, quote):
        bar = self._open.get(quote.symbol)
        if bar is None:
            bar = [quote.price_cents, quote.price_cents, quote.price_cents, quote.price_cents, 0, 0]
        bar[1] = max(bar[1], quote.price_cents)
        bar[2] = min(bar[2], quote.price_cents)
        bar[3] = quote.price_cents
        bar[4] += quote.volume
        bar[5] += 1
        if bar[5] == self.size:
            self._closed.setdefault(quote.symbol, []).append(tuple(bar[:5]))
            self._open.pop(quote.symbol, None)
        else:
            self._open[quote.symbol] = bar

    def bars(self, symbol):
        return list(self._closed.get(symbol, []))

    def open_bar(self, symbol):
        bar = self._open.get(symbol)
        return None if bar is None else tuple(bar[:5])
