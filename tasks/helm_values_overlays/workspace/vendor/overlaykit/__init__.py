"""overlaykit 0.9.2: layered configuration values with dotted paths and merge directives."""
from .errors import MergeConflict, PathError
from .merge import DELETE, merge_into, merged
from .paths import flatten, get_path, set_path

__all__ = ["DELETE", "MergeConflict", "PathError", "flatten", "get_path", "merge_into", "merged", "set_path"]
__version__ = "0.9.2"
