import json
from dataclasses import asdict
from fractions import Fraction

from recipes import Ingredient, Recipe


def _default(value):
    if isinstance(value, Fraction):
        return str(value)
    raise TypeError(f"cannot encode {type(value).__name__}")


def dumps(recipe):
    return json.dumps(asdict(recipe), default=_default, sort_keys=True)


def loads(text):
    data = json.loads(text)
    return Recipe(
        title=data["title"],
        servings=int(data["servings"]),
        ingredients=[Ingredient(d["name"], Fraction(d["quantity"]), d["unit"]) for d in data["ingredients"]],
        steps=list(data["steps"]),
    )


class RecipeBox:
    def __init__(self, directory):
        self.directory = directory

    def path(self, title):
        return self.directory / (title.lower().replace(" ", "_") + ".json")

    def save(self, recipe):
        self.path(recipe.title).write_text(dumps(recipe), encoding="utf-8")

    def load(self, title):
        return loads(self.path(title).read_text(encoding="utf-8"))

    def titles(self):
        return sorted(p.stem for p in self.directory.glob("*.json"))
