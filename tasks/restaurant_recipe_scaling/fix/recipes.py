"""Recipes as the head chef writes them, scaled to the covers expected."""
from dataclasses import dataclass, field

from units import base_unit, convert


@dataclass
class Ingredient:
    name: str
    qty: float
    unit: str

    def in_base(self):
        unit = base_unit(self.unit)
        return Ingredient(self.name, convert(self.qty, self.unit, unit), unit)


@dataclass
class Recipe:
    name: str
    servings: int
    ingredients: list = field(default_factory=list)
    method: list = field(default_factory=list)

    def add(self, name, qty, unit):
        if qty <= 0:
            raise ValueError(f"{self.name}: {name} quantity must be positive")
        self.ingredients.append(Ingredient(name, qty, unit))
        return self

    def ingredient(self, name):
        for ing in self.ingredients:
            if ing.name == name:
                return ing
        raise KeyError(f"{self.name} has no {name}")

    def scaled(self, servings):
        if servings < 1:
            raise ValueError("servings must be at least 1")
        factor = servings / self.servings
        ingredients = [Ingredient(i.name, round(i.qty * factor, 2), i.unit) for i in self.ingredients]
        return Recipe(self.name, servings, ingredients, list(self.method))


def parse_recipe(text):
    """First line 'Name | servings'; then 'qty unit name' lines; a blank line; then the method."""
    head, _, rest = text.strip().partition("\n")
    name, servings = (p.strip() for p in head.split("|"))
    recipe = Recipe(name, int(servings))
    block, _, method = rest.partition("\n\n")
    for line in block.strip().splitlines():
        qty, unit, ing = line.split(maxsplit=2)
        recipe.add(ing, float(qty), unit)
    recipe.method = [m.strip() for m in method.strip().splitlines() if m.strip()]
    return recipe
