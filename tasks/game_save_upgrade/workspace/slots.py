"""The save-slot menu: manual slots plus a ring of autosaves, newest first."""
import re
from dataclasses import dataclass
from pathlib import Path

from game import load_game, save_game
from save_schema import CorruptSave
from vendor.migrakit import MigrationError

AUTOSAVES = 3
_SLOT = re.compile(r"^(slot|auto)(\d+)\.json$")


@dataclass(frozen=True)
class SlotInfo:
    name: str
    player: str
    coins: int
    modified_ns: int
    readable: bool


class SaveSlots:
    def __init__(self, directory):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self._next_auto = 0

    def save(self, state, slot):
        save_game(state, self.dir / f"slot{int(slot)}.json")

    def autosave(self, state):
        """Overwrite the oldest of the autosave ring."""
        name = f"auto{self._next_auto}.json"
        self._next_auto = (self._next_auto + 1) % AUTOSAVES
        save_game(state, self.dir / name)
        return name

    def load(self, name):
        return load_game(self.dir / name)

    def listing(self):
        infos = []
        for path in self.dir.iterdir():
            if not _SLOT.match(path.name):
                continue
            try:
                state = load_game(path)
                infos.append(SlotInfo(path.name, state.player, state.coins, path.stat().st_mtime_ns, True))
            except (CorruptSave, MigrationError):
                infos.append(SlotInfo(path.name, "?", 0, path.stat().st_mtime_ns, False))
        return sorted(infos, key=lambda info: (-info.modified_ns, info.name))

    def delete(self, name):
        if not _SLOT.match(name):
            raise ValueError(f"{name!r} is not a save slot")
        (self.dir / name).unlink(missing_ok=True)
