import json
import threading

import pytest

from layout import WorkspaceLayout
from workspace_store import WorkspaceStore


def test_save_and_load_round_trip(tmp_path):
    store = WorkspaceStore(tmp_path / "workspace.json")
    layout = WorkspaceLayout(["main.py", "README.md"], "main.py", "vertical", 300)
    store.save(layout)
    assert store.load() == layout


def test_recent_files_round_trip(tmp_path):
    from recent_files import RecentFiles

    store = WorkspaceStore(tmp_path / "workspace.json")
    recent = RecentFiles(limit=3)
    for name in ["a.py", "b.py", "c.py", "a.py", "d.py"]:
        recent.touch(name)
    store.save_recent(recent)
    loaded = store.load_recent(limit=3)
    assert loaded.to_list() == ["d.py", "a.py", "c.py"]
    loaded.forget_missing(exists=lambda p: p != "a.py")
    assert list(loaded) == ["d.py", "c.py"]


def test_missing_file_gives_default_layout(tmp_path):
    assert WorkspaceStore(tmp_path / "none.json").load() == WorkspaceLayout()


def test_invalid_layout_is_not_saved(tmp_path):
    store = WorkspaceStore(tmp_path / "workspace.json")
    with pytest.raises(ValueError):
        store.save(WorkspaceLayout(["a.py"], "b.py"))
    assert not (tmp_path / "workspace.json").exists()


def test_save_leaves_no_staging_files(tmp_path):
    store = WorkspaceStore(tmp_path / "workspace.json")
    store.save(WorkspaceLayout(["a.py"], "a.py"))
    store.save(WorkspaceLayout(["a.py", "b.py"], "b.py"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["workspace.json"]


class SteppingEncoder(json.JSONEncoder):
    """Streams JSON and pauses after the first chunk until the other save gets there too."""

    def __init__(self, meeting):
        super().__init__(indent=2, sort_keys=True)
        self.meeting = meeting

    def iterencode(self, o, _one_shot=False):
        for n, chunk in enumerate(super().iterencode(o, _one_shot)):
            yield chunk
            if n == 0:
                try:
                    self.meeting.wait()
                except threading.BrokenBarrierError:
                    pass


def test_overlapping_saves_both_succeed(tmp_path):
    path = tmp_path / "workspace.json"
    store = WorkspaceStore(path, encoder=SteppingEncoder(threading.Barrier(2, timeout=2)))
    ui = WorkspaceLayout(["main.py", "util.py"], "util.py", "vertical", 300)
    autosave = WorkspaceLayout(["main.py"], "main.py", "single", 240)
    errors = []

    def save(layout):
        try:
            store.save(layout)
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=save, args=(layout,), daemon=True) for layout in (ui, autosave)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(3)
    assert not any(t.is_alive() for t in threads)
    assert errors == [], f"save failed: {errors!r}"
    assert WorkspaceStore(path).load() in (ui, autosave)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["workspace.json"]
