"""migrakit: versioned document upgrades.

    saves = Migrations("save", base_version=1)

    @saves.step(1)            # upgrades a version-1 document to version 2
    def rename(doc): ...

    doc, applied = saves.upgrade(old_doc)
"""
from .errors import MigrationError, TooNew
from .registry import Migrations

__all__ = ["MigrationError", "Migrations", "TooNew"]
__version__ = "0.3.2"
