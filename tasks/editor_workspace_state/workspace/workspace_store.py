"""Persists the workspace layout. The UI thread saves on every change and the
autosave thread saves periodically, so saves can overlap."""
import os

from layout import WorkspaceLayout
from recent_files import RecentFiles
from state_file import StateFile


class WorkspaceStore:
    def __init__(self, path, encoder=None):
        self._file = StateFile(path, encoder=encoder)
        base, _ = os.path.splitext(os.fspath(path))
        self._recent = StateFile(base + ".recent.json", encoder=encoder)

    def save_recent(self, recent):
        self._recent.save(recent.to_list())

    def load_recent(self, limit=10):
        return RecentFiles.from_list(self._recent.load(default=[]), limit=limit)

    def save(self, layout):
        self._file.save(layout.validate().to_dict())

    def load(self):
        data = self._file.load()
        return WorkspaceLayout() if data is None else WorkspaceLayout.from_dict(data)
