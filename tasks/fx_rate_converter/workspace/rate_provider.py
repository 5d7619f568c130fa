"""Where exchange rates come from: a JSON document fetched once per process."""
import json


class JsonRateProvider:
    """Reads {"base": "EUR", "rates": {"USD": "1.0842", ...}} from a file."""

    def __init__(self, path):
        self.path = path

    def fetch(self):
        with open(self.path, encoding="utf-8") as fh:
            document = json.load(fh)
        base = document["base"]
        rates = {code: str(rate) for code, rate in document["rates"].items()}
        rates[base] = "1"
        return rates
