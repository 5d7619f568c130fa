"""Print jobs as submitted by the office clients."""
import itertools
from dataclasses import dataclass, field

_ids = itertools.count(1)

PAPER_SIZES = ("A4", "A3", "letter")


@dataclass
class PrintJob:
    owner: str
    title: str
    pages: int
    color: bool = False
    duplex: bool = False
    paper: str = "A4"
    copies: int = 1
    job_id: int = field(default_factory=lambda: next(_ids))

    def __post_init__(self):
        if self.pages < 1:
            raise ValueError(f"job {self.title!r}: needs at least one page")
        if self.copies < 1:
            raise ValueError(f"job {self.title!r}: copies must be positive")
        if self.paper not in PAPER_SIZES:
            raise ValueError(f"job {self.title!r}: unknown paper {self.paper!r}")

    @property
    def sheets(self):
        per_copy = (self.pages + 1) // 2 if self.duplex else self.pages
        return per_copy * self.copies

    def needs(self):
        caps = {f"paper:{self.paper}"}
        if self.color:
            caps.add("color")
        if self.duplex:
            caps.add("duplex")
        return caps
