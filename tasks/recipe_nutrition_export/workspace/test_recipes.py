from fractions import Fraction

import pytest

from nutrition import label, per_serving, totals
from quantities import QuantityError, format_amount, parse_amount
from recipes import Recipe
from storage import RecipeBox, dumps, loads


def pancakes():
    r = Recipe("Pancakes", 4, steps=["mix", "fry"])
    r.add("1 1/2 cup flour").add("1 1/4 cup milk").add("1 tbsp sugar").add("50 g butter").add("1/3 cup milk")
    return r


def test_amounts():
    assert parse_amount("1 1/2") == Fraction(3, 2)
    assert format_amount(Fraction(7, 4)) == "1 3/4"
    with pytest.raises(QuantityError):
        parse_amount("a pinch")


def test_shopping_list_and_scaling():
    r = pancakes().scaled(6)
    assert r.shopping_list()[:2] == ["2 1/4 cup flour", "1 7/8 cup milk"]


def test_nutrition_totals():
    assert totals(pancakes()) == {"kcal": 1341, "protein_g": 31.3, "fat_g": 54.1, "carbs_g": 177.3}


def test_json_keeps_fractions_exact():
    text = dumps(pancakes())
    assert '"quantity": "3/2"' in text


def test_round_trip_equals_original():
    r = pancakes()
    assert loads(dumps(r)) == r


def test_saved_recipe_scales(tmp_path):
    box = RecipeBox(tmp_path)
    box.save(pancakes())
    assert box.titles() == ["pancakes"]
    assert box.load("Pancakes").scaled(2).shopping_list()[0] == "3/4 cup flour"


def test_saved_recipe_label(tmp_path):
    box = RecipeBox(tmp_path)
    box.save(pancakes())
    assert label(box.load("Pancakes")) == "Pancakes: 335 kcal per serving (7.8 g protein, 13.5 g fat)"


def test_per_serving_after_reload_matches(tmp_path):
    box = RecipeBox(tmp_path)
    box.save(pancakes().scaled(8))
    assert per_serving(box.load("Pancakes")) == per_serving(pancakes())


def test_meal_plan_from_the_box(tmp_path):
    from planner import MealPlan

    box = RecipeBox(tmp_path)
    box.save(pancakes())
    crepes = Recipe("Crepes", 2).add("1/2 cup flour").add("1 cup milk").add("2 tbsp butter")
    box.save(crepes)
    plan = MealPlan(box, people=3)
    plan.schedule("mon", "Pancakes")
    plan.schedule("tue", "Crepes")
    assert plan.shopping() == {"butter": "80 1/4 g", "flour": "238 1/2 g", "milk": "664 7/20 g", "sugar": "9 9/16 g"}
    assert plan.daily_kcal() == {"mon": 1005, "tue": 879}
    assert plan.week_summary() == "2 days planned, 1884 kcal in total, most on mon"
