"""Tonight's service: covers booked per dish turn into scaled recipes and one prep list."""
from shopping import shopping_list


class Service:
    def __init__(self, book):
        self.book = book
        self.covers = {}

    def expect(self, dish, covers):
        if dish not in self.book:
            raise KeyError(f"{dish} is not in the recipe book")
        self.covers[dish] = self.covers.get(dish, 0) + covers

    def scaled_recipes(self):
        return [self.book[dish].scaled(n) for dish, n in sorted(self.covers.items())]

    def prep_list(self, pantry=None):
        return shopping_list(self.scaled_recipes(), pantry)
