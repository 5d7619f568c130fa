"""Collection records: artworks, their provenance and the loans they go out on."""
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal


@dataclass
class Artwork:
    accession: str
    title: str
    artist: str
    year: int
    medium: str
    dimensions_cm: tuple
    valuation: Decimal
    currency: str = "EUR"
    acquired: date = None
    tags: set = field(default_factory=set)
    provenance: list = field(default_factory=list)
    condition: dict = field(default_factory=dict)

    def __post_init__(self):
        if not self.accession:
            raise ValueError("accession number required")
        if len(self.dimensions_cm) not in (2, 3):
            raise ValueError(f"{self.accession}: dimensions are (h, w) or (h, w, d)")
        if not isinstance(self.valuation, Decimal):
            raise TypeError(f"{self.accession}: valuation must be a Decimal")

    def previous_owner(self, in_year):
        """Who held the work in a given year, from the (year, owner) provenance chain."""
        holder = None
        for since, owner in sorted(self.provenance):
            if since <= in_year:
                holder = owner
        return holder


@dataclass
class Loan:
    borrower: str
    accessions: tuple
    start: date
    end: date
    rooms: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.end < self.start:
            raise ValueError(f"loan to {self.borrower} ends before it starts")


@dataclass
class Collection:
    name: str
    works: dict = field(default_factory=dict)
    loans: list = field(default_factory=list)

    def add(self, work):
        if work.accession in self.works:
            raise ValueError(f"duplicate accession {work.accession}")
        self.works[work.accession] = work
        return work

    def on_loan(self, day):
        out = set()
        for loan in self.loans:
            if loan.start <= day <= loan.end:
                out.update(loan.accessions)
        return sorted(out)
