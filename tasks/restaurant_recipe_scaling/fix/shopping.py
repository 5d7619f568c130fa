"""The prep list: what the kitchen needs for tonight's covers, minus what the store room already holds."""
from units import pretty


def combined(recipes):
    """Total of each ingredient across recipes, in base units, in first-seen order."""
    totals = {}
    for recipe in recipes:
        for ing in recipe.ingredients:
            base = ing.in_base()
            if base.name in totals:
                totals[base.name].qty = round(totals[base.name].qty + base.qty, 2)
            else:
                totals[base.name] = base
    return list(totals.values())


def shopping_list(recipes, pantry=None):
    pantry = pantry or {}
    out = []
    for ing in combined(recipes):
        need = round(ing.qty - pantry.get(ing.name, 0), 2)
        if need > 0:
            out.append((ing.name, need, ing.unit))
    return out


def printed(items):
    return [f"{name}: {pretty(qty, unit)}" for name, qty, unit in items]
