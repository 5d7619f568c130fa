class OverlayError(Exception):
    """Base class for overlaykit errors."""


class MergeConflict(OverlayError):
    def __init__(self, path, left, right):
        super().__init__(f"cannot merge {type(right).__name__} into {type(left).__name__} at {path or '<root>'}")
        self.path = path
        self.left = left
        self.right = right


class PathError(OverlayError, KeyError):
    def __init__(self, path, missing):
        super().__init__(f"{path}: no key {missing!r}")
        self.path = path
        self.missing = missing
