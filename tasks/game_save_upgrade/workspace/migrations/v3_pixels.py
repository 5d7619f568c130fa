"""Version 3 moved from tile to pixel coordinates (16 px tiles), split gold into coins and stacked the inventory."""
from collections import Counter

from save_schema import SAVES

TILE_PX = 16


@SAVES.step(2)
def tiles_to_pixels(doc):
    x, y = doc["pos"]
    doc["pos"] = [x * TILE_PX, y * TILE_PX]
    doc["coins"] = doc.pop("gold", 0) * 100 + doc.get("coins", 0)
    doc["inventory"] = dict(Counter(doc["inventory"]))
