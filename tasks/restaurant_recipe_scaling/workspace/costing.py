"""Plate costs from the supplier price list (price per kg, per litre or each)."""
from units import base_unit, convert

PRICE_UNIT = {"g": "kg", "ml": "l", "each": "each"}


class PriceList:
    def __init__(self, prices):
        self.prices = dict(prices)

    def cost_of(self, ing):
        try:
            price = self.prices[ing.name]
        except KeyError:
            raise KeyError(f"no price for {ing.name}") from None
        base = base_unit(ing.unit)
        return convert(ing.qty, ing.unit, PRICE_UNIT[base]) * price


def recipe_cost(recipe, prices):
    return round(sum(prices.cost_of(ing) for ing in recipe.ingredients), 2)


def cost_per_cover(recipe, prices):
    return round(recipe_cost(recipe, prices) / recipe.servings, 2)


def menu_margin(recipe, prices, menu_price):
    """Gross margin per cover as a percentage of the menu price."""
    cost = cost_per_cover(recipe, prices)
    return round(100 * (menu_price - cost) / menu_price, 1)
