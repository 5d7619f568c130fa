"""The game state the engine plays with, and its save slots."""
from dataclasses import dataclass, field

import saves
import migrations  # noqa: F401  (registers the upgrade steps)

TILE_PX = 16
MAX_STACK = 99


@dataclass
class GameState:
    player: str
    health: int = 100
    pos: list = field(default_factory=lambda: [0, 0])
    coins: int = 0
    inventory: dict = field(default_factory=dict)

    def move(self, dx_tiles, dy_tiles):
        self.pos = [self.pos[0] + dx_tiles * TILE_PX, self.pos[1] + dy_tiles * TILE_PX]

    def pick_up(self, item, count=1):
        have = self.inventory.get(item, 0)
        if have + count > MAX_STACK:
            raise ValueError(f"cannot carry more than {MAX_STACK} {item}")
        self.inventory[item] = have + count

    def spend(self, coins):
        if coins > self.coins:
            raise ValueError(f"{self.player} has {self.coins} coins, not {coins}")
        self.coins -= coins

    def to_doc(self):
        return {"player": self.player, "health": self.health, "pos": list(self.pos), "coins": self.coins, "inventory": dict(self.inventory)}


def save_game(state, path):
    saves.write_save(path, state.to_doc())


def load_game(path):
    doc, _ = saves.load_save(path)
    return GameState(doc["player"], doc["health"], doc["pos"], doc["coins"], doc["inventory"])
