"""The season programme and its figures."""
from events import Event
from pricing import PriceTable


class Season:
    def __init__(self, name):
        self.name = name
        self.events = []

    def add(self, title, day, prices=None):
        event = Event(title, day) if prices is None else Event(title, day, PriceTable(prices))
        self.events.append(event)
        return event

    def event(self, title):
        for e in self.events:
            if e.title == title:
                return e
        raise KeyError(title)

    def takings(self):
        return {e.title: e.revenue() for e in self.events}

    def price_list(self, section_code):
        """What a seat in one section costs at each event of the season."""
        return {e.title: e.pricing.price(section_code) for e in self.events}
