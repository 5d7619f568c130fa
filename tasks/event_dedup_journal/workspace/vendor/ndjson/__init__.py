"""ndjson: newline-delimited JSON files that survive a crash mid-write.

A reader skips a torn last line (a write the process did not finish) instead of failing on it; a torn line anywhere
else is an error, because it means the file was edited or damaged.
"""
from .reader import TornFile, iter_records
from .writer import Appender, encode

__all__ = ["Appender", "TornFile", "encode", "iter_records"]
__version__ = "1.1.0"
