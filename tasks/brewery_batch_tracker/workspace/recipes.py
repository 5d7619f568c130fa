"""Beer recipes: style, target gravities and batch size."""
from dataclasses import dataclass

STYLES = ("pale ale", "stout", "lager", "ipa", "saison")


@dataclass(frozen=True)
class Recipe:
    name: str
    style: str
    original_gravity: float
    final_gravity: float
    batch_litres: int

    def __post_init__(self):
        if self.style not in STYLES:
            raise ValueError(f"{self.name}: unknown style {self.style!r}")
        if not 1.0 < self.final_gravity < self.original_gravity < 1.2:
            raise ValueError(f"{self.name}: gravities out of range")

    def target_abv(self):
        return abv(self.original_gravity, self.final_gravity)


def abv(og, fg):
    """The usual homebrew approximation: (OG - FG) x 131.25, one decimal."""
    return round((og - fg) * 131.25, 1)


BOOK = {
    r.name: r
    for r in (
        Recipe("Harbour Pale", "pale ale", 1.048, 1.010, 1000),
        Recipe("Lighthouse Stout", "stout", 1.060, 1.016, 800),
        Recipe("Tidal IPA", "ipa", 1.064, 1.012, 1000),
        Recipe("Dune Lager", "lager", 1.046, 1.008, 1200),
    )
}
