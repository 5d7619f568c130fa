"""Version 2 renamed hit points to health and capped it at 100."""
from save_schema import SAVES


@SAVES.step(1)
def hp_to_health(doc):
    doc["health"] = min(100, doc.pop("hp"))
