"""Allergen labelling for the menu, from the ingredients each dish uses."""

ALLERGENS = {
    "butter": {"milk"},
    "pastry": {"gluten", "milk"},
    "stock": {"celery"},
    "arborio": set(),
    "mushrooms": set(),
    "olive oil": set(),
}


def allergens_of(recipe):
    found = set()
    for ing in recipe.ingredients:
        if ing.name not in ALLERGENS:
            raise KeyError(f"{recipe.name}: no allergen record for {ing.name}")
        found |= ALLERGENS[ing.name]
    return sorted(found)


def menu_label(recipe):
    tags = allergens_of(recipe)
    return f"{recipe.name} (contains: {', '.join(tags)})" if tags else f"{recipe.name} (no listed allergens)"
