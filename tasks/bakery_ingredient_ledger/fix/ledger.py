"""Ingredient stock, shared by every order desk. Each ingredient has its own lock so desks working on
different ingredients never wait for each other."""
import threading


class OutOfStock(Exception):
    def __init__(self, ingredient, wanted, available):
        super().__init__(f"{ingredient}: wanted {wanted} g, {available} g available")
        self.ingredient = ingredient
        self.wanted = wanted
        self.available = available


class IngredientLedger:
    def __init__(self, stock, low_water=None, on_low=None):
        self._stock = dict(stock)
        self._locks = {}
        self._locks_guard = threading.Lock()
        self.low_water = dict(low_water or {})
        self.on_low = on_low
        self.movements = []

    def _lock_for(self, ingredient):
        with self._locks_guard:
            return self._locks.setdefault(ingredient, threading.Lock())

    def available(self, ingredient):
        return self._stock.get(ingredient, 0)

    def take(self, ingredient, grams):
        with self._lock_for(ingredient):
            before = self._stock.get(ingredient, 0)
            if grams > before:
                raise OutOfStock(ingredient, grams, before)
            after = before - grams
            if self.on_low is not None and after < self.low_water.get(ingredient, 0):
                self.on_low(ingredient, after)
            self._stock[ingredient] = after
            self.movements.append((ingredient, -grams))

    def put_back(self, ingredient, grams):
        with self._lock_for(ingredient):
            self._stock[ingredient] = self._stock.get(ingredient, 0) + grams
            self.movements.append((ingredient, grams))

    def take_all(self, needs):
        """Take every ingredient in `needs` or none of them."""
        taken = []
        try:
            for ingredient in sorted(needs):
                self.take(ingredient, needs[ingredient])
                taken.append(ingredient)
        except OutOfStock:
            for ingredient in taken:
                self.put_back(ingredient, needs[ingredient])
            raise

    def restock(self, delivery):
        """Book a delivery note {ingredient: grams}; returns the ingredients still under their low-water mark."""
        for ingredient, grams in delivery.items():
            if grams <= 0:
                raise ValueError(f"delivery of {ingredient} must be positive")
            self.put_back(ingredient, grams)
        return sorted(i for i, mark in self.low_water.items() if self.available(i) < mark)

    def snapshot(self):
        return dict(sorted(self._stock.items()))
