"""A trader's dashboard: a set of ticker widgets over one shared feed."""
from widgets import TickerWidget


class Dashboard:
    def __init__(self, feed):
        self._feed = feed
        self._widgets = {}

    def open_ticker(self, name, symbol):
        if name in self._widgets:
            raise ValueError(f"a widget named {name!r} is already open")
        widget = TickerWidget(self._feed, symbol)
        self._widgets[name] = widget
        return widget

    def close_ticker(self, name):
        self._widgets.pop(name).close()

    def retarget(self, name, symbol):
        self._widgets[name].retarget(symbol)

    def widget(self, name):
        return self._widgets[name]
