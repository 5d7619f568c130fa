from fractions import Fraction

# per 100 g: kcal, protein g, fat g, carbs g
TABLE = {
    "flour": (364, 10, 1, 76),
    "sugar": (387, 0, 0, 100),
    "milk": (61, 3, 3, 5),
    "butter": (717, 1, 81, 0),
    "egg": (143, 13, 10, 1),
}


class UnknownFood(KeyError):
    pass


def per_100g(name):
    try:
        return TABLE[name]
    except KeyError:
        raise UnknownFood(name) from None


def raw_totals(recipe):
    kcal = protein = fat = carbs = Fraction(0)
    for ing in recipe.ingredients:
        grams = ing.grams()
        k, p, f, c = per_100g(ing.name)
        kcal += grams * k / 100
        protein += grams * p / 100
        fat += grams * f / 100
        carbs += grams * c / 100
    return {"kcal": kcal, "protein_g": protein, "fat_g": fat, "carbs_g": carbs}


def _rounded(values):
    return {k: (round(v) if k == "kcal" else round(float(v), 1)) for k, v in values.items()}


def totals(recipe):
    return _rounded(raw_totals(recipe))


def per_serving(recipe):
    return _rounded({k: v / recipe.servings for k, v in raw_totals(recipe).items()})


def label(recipe):
    s = per_serving(recipe)
    return f"{recipe.title}: {s['kcal']} kcal per serving ({s['protein_g']} g protein, {s['fat_g']} g fat)"
