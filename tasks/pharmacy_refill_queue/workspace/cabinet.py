from contextlib import contextmanager


class DrawerBusy(RuntimeError):
    pass


class StockShortage(RuntimeError):
    pass


class DispensingCabinet:
    """An automated cabinet: one drawer per drug, opened by one pharmacist at a time."""

    def __init__(self, stock):
        self.stock = dict(stock)
        self.open_drawers = {}
        self.log = []

    def _open(self, drug, who):
        if drug not in self.stock:
            raise KeyError(f"cabinet does not carry {drug}")
        holder = self.open_drawers.get(drug)
        if holder is not None:
            raise DrawerBusy(f"{drug} drawer held by {holder}")
        self.open_drawers[drug] = who
        self.log.append(("open", drug, who))

    def _close(self, drug, who):
        if self.open_drawers.get(drug) == who:
            del self.open_drawers[drug]
            self.log.append(("close", drug, who))

    @contextmanager
    def drawer(self, drug, who):
        self._open(drug, who)
        yield DrawerHandle(self, drug)
        self._close(drug, who)

    def remaining(self, drug):
        return self.stock[drug]

    def low_stock(self, threshold=20):
        return sorted(drug for drug, units in self.stock.items() if units < threshold)

    def opened_by(self, who):
        return [drug for _, drug, w in self.log if w == who]


class DrawerHandle:
    def __init__(self, cabinet, drug):
        self.cabinet = cabinet
        self.drug = drug
        self.taken = 0

    def take(self, units):
        have = self.cabinet.stock[self.drug]
        if units > have:
            raise StockShortage(f"{self.drug}: need {units}, have {have}")
        self.cabinet.stock[self.drug] = have - units
        self.taken += units
        return units
