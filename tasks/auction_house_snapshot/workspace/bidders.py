"""Registered bidders and their paddle numbers."""
from dataclasses import dataclass, field


@dataclass(eq=False)
class Bidder:
    paddle: int
    name: str
    credit_limit: int
    won: list = field(default_factory=list)

    def committed(self):
        return sum(price for _, price in self.won)

    def can_afford(self, amount):
        return self.committed() + amount <= self.credit_limit


class Register:
    def __init__(self):
        self.bidders = {}

    def add(self, paddle, name, credit_limit):
        if paddle in self.bidders:
            raise ValueError(f"paddle {paddle} already issued")
        self.bidders[paddle] = Bidder(paddle, name, credit_limit)
        return self.bidders[paddle]

    def __getitem__(self, paddle):
        return self.bidders[paddle]
