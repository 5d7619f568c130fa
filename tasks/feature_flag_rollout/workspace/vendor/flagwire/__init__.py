"""flagwire: feature flag evaluation with percentage rollouts."""
from .client import FlagClient, StaticTransport
from .rules import Rule, bucket

__all__ = ["FlagClient", "StaticTransport", "Rule", "bucket"]
__version__ = "2.1.0"
