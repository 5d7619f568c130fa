import json

import pytest

from game import GameState, load_game, save_game
from save_schema import SAVES, CorruptSave
from saves import load_save
from slots import SaveSlots
from vendor.migrakit import TooNew

V1_SAVE = {"version": 1, "player": "ria", "hp": 140, "pos": [3, 4], "gold": 2, "coins": 5, "inventory": ["potion", "potion", "rope"]}


def test_state_rules():
    state = GameState("ria")
    state.move(2, -1)
    assert state.pos == [32, -16]
    state.pick_up("arrow", 98)
    with pytest.raises(ValueError):
        state.pick_up("arrow", 2)


def test_old_save_is_upgraded(tmp_path):
    slot = tmp_path / "slot1.json"
    slot.write_text(json.dumps(V1_SAVE))
    doc, applied = load_save(slot)
    assert applied == [1, 2]
    assert doc == {"version": 3, "player": "ria", "health": 100, "pos": [48, 64], "coins": 205, "inventory": {"potion": 2, "rope": 1}}


def test_save_from_the_future_is_refused(tmp_path):
    slot = tmp_path / "slot1.json"
    slot.write_text(json.dumps(dict(V1_SAVE, version=SAVES.latest() + 1)))
    with pytest.raises(TooNew):
        load_save(slot)
    slot.write_text("{not json")
    with pytest.raises(CorruptSave):
        load_save(slot)


def test_saved_game_loads_unchanged(tmp_path):
    state = GameState("ria", health=80, coins=250)
    state.move(5, 2)
    state.pick_up("potion", 3)
    save_game(state, tmp_path / "slot2.json")
    loaded = load_game(tmp_path / "slot2.json")
    assert loaded == state, f"saved {state}, loaded {loaded}"


def test_current_saves_need_no_upgrade(tmp_path):
    save_game(GameState("ria"), tmp_path / "slot3.json")
    _, applied = load_save(tmp_path / "slot3.json")
    assert applied == [], f"a fresh save went through upgrade steps {applied}"


def test_slot_listing_marks_unreadable_slots(tmp_path):
    slots = SaveSlots(tmp_path / "saves")
    (tmp_path / "saves" / "slot1.json").write_text(json.dumps(V1_SAVE))
    (tmp_path / "saves" / "slot2.json").write_text("{broken")
    (tmp_path / "saves" / "notes.txt").write_text("not a slot")
    listing = {info.name: info for info in slots.listing()}
    assert sorted(listing) == ["slot1.json", "slot2.json"]
    assert (listing["slot1.json"].player, listing["slot1.json"].coins, listing["slot1.json"].readable) == ("ria", 205, True)
    assert not listing["slot2.json"].readable


def test_autosaves_rotate(tmp_path):
    slots = SaveSlots(tmp_path)
    names = [slots.autosave(GameState(f"p{n}")) for n in range(4)]
    assert names == ["auto0.json", "auto1.json", "auto2.json", "auto0.json"]
    slots.delete("auto1.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["auto0.json", "auto2.json"]
    with pytest.raises(ValueError):
        slots.delete("../game.py")
