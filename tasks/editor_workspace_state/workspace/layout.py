"""The editor's workspace layout: which files are open and how panes are split."""
from dataclasses import dataclass, field

SPLITS = ("single", "vertical", "horizontal", "grid")


@dataclass
class WorkspaceLayout:
    open_files: list = field(default_factory=list)
    active_file: str = None
    split: str = "single"
    sidebar_width: int = 240

    def validate(self):
        if self.split not in SPLITS:
            raise ValueError(f"unknown split {self.split!r}; expected one of {SPLITS}")
        if self.active_file is not None and self.active_file not in self.open_files:
            raise ValueError(f"active file {self.active_file!r} is not open")
        if not 120 <= self.sidebar_width <= 800:
            raise ValueError(f"sidebar width {self.sidebar_width} outside 120..800")
        return self

    def to_dict(self):
        return {
            "open_files": list(self.open_files),
            "active_file": self.active_file,
            "split": self.split,
            "sidebar_width": self.sidebar_width,
        }

    @classmethod
    def from_dict(cls, data):
        return cls(
            open_files=list(data.get("open_files", [])),
            active_file=data.get("active_file"),
            split=data.get("split", "single"),
            sidebar_width=int(data.get("sidebar_width", 240)),
        ).validate()
