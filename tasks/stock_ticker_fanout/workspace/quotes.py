"""Quotes from the exchange feed: 'SYMBOL PRICE VOLUME SEQ' lines, prices in cents."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Quote:
    symbol: str
    price_cents: int
    volume: int
    seq: int

    def __post_init__(self):
        if self.price_cents <= 0:
            raise ValueError(f"{self.symbol}: price must be positive")
        if self.volume < 0:
            raise ValueError(f"{self.symbol}: negative volume")


def parse_line(line):
    symbol, price, volume, seq = line.split()
    whole, _, frac = price.partition(".")
    cents = int(whole) * 100 + int((frac + "00")[:2])
    return Quote(symbol.upper(), cents, int(volume), int(seq))


def parse_feed(text):
    quotes, last_seq = [], 0
    for line in text.strip().splitlines():
        q = parse_line(line)
        if q.seq <= last_seq:
            raise ValueError(f"sequence went backwards at {q.seq}")
        last_seq = q.seq
        quotes.append(q)
    return quotes
