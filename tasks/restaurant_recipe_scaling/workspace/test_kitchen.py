import unittest

from allergens import menu_label
from costing import PriceList, cost_per_cover, menu_margin
from ordering import Catalogue, Pack, purchase_orders
from recipes import parse_recipe
from service import Service
from shopping import combined, printed, shopping_list

RISOTTO = parse_recipe("""
Mushroom risotto | 4
320 g arborio
1.2 l stock
250 g mushrooms
60 g butter
2 tbsp olive oil

Sweat the mushrooms in the oil.
Toast the rice, add stock a ladle at a time.
Finish with butter.
""")

TART = parse_recipe("""
Mushroom tart | 6
500 g mushrooms
80 g butter
1 each pastry

Blind bake the pastry.
""")

PRICES = PriceList({"arborio": 3.2, "stock": 1.5, "mushrooms": 9.0, "butter": 8.0, "olive oil": 12.0, "pastry": 2.75})



class RecipeTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(RISOTTO.servings, 4)
        self.assertEqual(RISOTTO.ingredient("stock").qty, 1.2)
        self.assertEqual(len(RISOTTO.method), 3)

    def test_scaling(self):
        big = RISOTTO.scaled(10)
        self.assertEqual(big.ingredient("arborio").qty, 800)
        self.assertEqual(big.ingredient("olive oil").qty, 5)

    def test_scaling_leaves_the_book_recipe_alone(self):
        RISOTTO.scaled(10)
        RISOTTO.scaled(2)
        self.assertEqual(RISOTTO.ingredient("arborio").qty, 320)
        self.assertEqual(cost_per_cover(RISOTTO, PRICES), 1.48)


class PrepListTest(unittest.TestCase):
    def test_combined_quantities(self):
        totals = {i.name: i.qty for i in combined([RISOTTO, TART])}
        self.assertEqual(totals["mushrooms"], 750)
        self.assertEqual(totals["stock"], 1200)
        self.assertEqual(totals["olive oil"], 30)

    def test_prep_list_does_not_change_recipes(self):
        shopping_list([TART, RISOTTO])
        shopping_list([TART, RISOTTO])
        self.assertEqual(TART.ingredient("mushrooms").qty, 500)
        self.assertEqual(TART.ingredient("butter").qty, 80)

    def test_service_prep_list_with_pantry(self):
        book = {"risotto": parse_recipe(RISOTTO_TEXT), "tart": parse_recipe(TART_TEXT)}
        service = Service(book)
        service.expect("risotto", 8)
        service.expect("tart", 6)
        items = service.prep_list(pantry={"butter": 100, "pastry": 1})
        self.assertEqual(printed(items), ["arborio: 640 g", "stock: 2.40 l", "mushrooms: 1.00 kg", "butter: 100 g",
                                          "olive oil: 60 ml"])
        self.assertEqual(book["risotto"].ingredient("mushrooms").qty, 250)
        self.assertEqual(book["tart"].ingredient("butter").qty, 80)

    def test_purchase_orders_round_up_to_packs(self):
        service = Service({"risotto": parse_recipe(RISOTTO_TEXT)})
        service.expect("risotto", 12)
        catalogue = Catalogue([
            Pack("Greens & Co", "mushrooms", 500, "g", 4.2), Pack("Greens & Co", "mushrooms", 2500, "g", 19.0),
            Pack("Dry Goods Ltd", "arborio", 1000, "g", 3.1), Pack("Dry Goods Ltd", "stock", 1000, "ml", 1.4),
            Pack("Dairy Farm", "butter", 250, "g", 2.2), Pack("Dry Goods Ltd", "olive oil", 500, "ml", 5.5),
        ])
        orders = purchase_orders(service.prep_list(), catalogue)
        self.assertEqual(orders["Greens & Co"], [("mushrooms", 2, 500, 8.4)])
        self.assertEqual(orders["Dry Goods Ltd"], [("arborio", 1, 1000, 3.1), ("olive oil", 1, 500, 5.5), ("stock", 4, 1000, 5.6)])
        self.assertEqual(menu_label(RISOTTO), "Mushroom risotto (contains: celery, milk)")

    def test_margin(self):
        self.assertEqual(menu_margin(TART, PRICES, 9.5), 86.2)


RISOTTO_TEXT = """
Mushroom risotto | 4
320 g arborio
1.2 l stock
250 g mushrooms
60 g butter
2 tbsp olive oil

Method.
"""

TART_TEXT = """
Mushroom tart | 6
500 g mushrooms
80 g butter
1 each pastry

Method.
"""


if __name__ == "__main__":
    unittest.main()
