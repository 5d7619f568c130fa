"""The bakery menu: products and the ingredients one unit of each takes, in grams."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Product:
    code: str
    name: str
    price_cents: int
    recipe: dict = field(default_factory=dict)
    batch_size: int = 12

    def __post_init__(self):
        if self.price_cents <= 0:
            raise ValueError(f"{self.code}: price must be positive")
        if not self.recipe:
            raise ValueError(f"{self.code}: recipe must list at least one ingredient")
        if any(g <= 0 for g in self.recipe.values()):
            raise ValueError(f"{self.code}: ingredient amounts must be positive")

    def needs(self, quantity):
        return {ingredient: grams * quantity for ingredient, grams in self.recipe.items()}


MENU = {
    p.code: p
    for p in (
        Product("SOUR", "sourdough loaf", 450, {"flour": 500, "water": 350, "salt": 10}, batch_size=8),
        Product("CROI", "croissant", 220, {"flour": 60, "butter": 35, "milk": 20, "sugar": 8}),
        Product("BRIO", "brioche bun", 180, {"flour": 50, "butter": 15, "egg": 20, "sugar": 6}),
        Product("RYE", "rye loaf", 480, {"rye": 450, "water": 380, "salt": 9}, batch_size=6),
    )
}


def product(code):
    try:
        return MENU[code]
    except KeyError:
        raise KeyError(f"not on the menu: {code}") from None


def combined_needs(lines):
    """Total grams per ingredient for [(product code, quantity)]."""
    total = {}
    for code, quantity in lines:
        for ingredient, grams in product(code).needs(quantity).items():
            total[ingredient] = total.get(ingredient, 0) + grams
    return total
