"""layerconf: layered configuration dictionaries."""
from .merge import merge
from .paths import diff, flatten, get_path, set_path

__all__ = ["merge", "get_path", "set_path", "flatten", "diff"]
__version__ = "0.9.1"
