"""layerconf: configuration built from layers (defaults, site file, command line), merged key by key."""
from .loader import OverrideError, parse_overrides
from .merge import deep_merge, merged
from .schema import ConfigError, require

__all__ = ["ConfigError", "OverrideError", "deep_merge", "merged", "parse_overrides", "require"]
__version__ = "0.9.2"
