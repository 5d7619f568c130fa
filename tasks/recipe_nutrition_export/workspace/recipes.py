from dataclasses import dataclass, field
from fractions import Fraction

from quantities import format_amount, parse_amount, to_grams


@dataclass
class Ingredient:
    name: str
    quantity: Fraction
    unit: str

    def grams(self):
        return to_grams(self.quantity, self.unit, self.name)

    def line(self):
        return f"{format_amount(self.quantity)} {self.unit} {self.name}"


@dataclass
class Recipe:
    title: str
    servings: int
    ingredients: list = field(default_factory=list)
    steps: list = field(default_factory=list)

    def add(self, text):
        """'1 1/2 cup flour'"""
        tokens = text.split()
        if len(tokens) < 3:
            raise ValueError(f"expected amount, unit and name: {text!r}")
        for cut in range(len(tokens) - 2, 0, -1):
            try:
                amount = parse_amount(" ".join(tokens[:cut]))
            except ValueError:
                continue
            unit, name = tokens[cut], " ".join(tokens[cut + 1:])
            self.ingredients.append(Ingredient(name, amount, unit))
            return self
        raise ValueError(f"no amount in {text!r}")

    def scaled(self, servings):
        factor = Fraction(servings, self.servings)
        return Recipe(
            self.title,
            servings,
            [Ingredient(i.name, i.quantity * factor, i.unit) for i in self.ingredients],
            list(self.steps),
        )

    def shopping_list(self):
        return [i.line() for i in self.ingredients]
