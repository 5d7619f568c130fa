from collections import defaultdict
from fractions import Fraction

from nutrition import per_serving
from quantities import format_amount

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class PlanError(ValueError):
    pass


class MealPlan:
    """Recipes from a RecipeBox scheduled per day, scaled to the household."""

    def __init__(self, box, people):
        if people <= 0:
            raise PlanError("people must be positive")
        self.box = box
        self.people = people
        self.days = {}

    def schedule(self, day, title):
        if day not in DAYS:
            raise PlanError(f"unknown day {day!r}")
        recipe = self.box.load(title)
        self.days[day] = recipe.scaled(self.people)
        return self.days[day]

    def clear(self, day):
        self.days.pop(day, None)

    def shopping(self):
        grams = defaultdict(Fraction)
        for recipe in self.days.values():
            for ing in recipe.ingredients:
                grams[ing.name] += ing.grams()
        return {name: f"{format_amount(total)} g" for name, total in sorted(grams.items())}

    def daily_kcal(self):
        out = {}
        for day in DAYS:
            if day in self.days:
                out[day] = per_serving(self.days[day])["kcal"] * self.people
        return out

    def week_summary(self):
        kcal = self.daily_kcal()
        if not kcal:
            return "nothing planned"
        busiest = max(kcal, key=kcal.get)
        return f"{len(kcal)} days planned, {sum(kcal.values())} kcal in total, most on {busiest}"
